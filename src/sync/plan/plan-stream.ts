// What planning needs of one stream (project × pipeline): its coverage, checkpoint, density and
// settings, without the client that reads it (the runner's OrgStream adds that, run/run-org.ts).
import type { CoverageInterval } from '../../core/intervals.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import type { StreamInput } from './planner.js';

export interface PlanStream {
  projectId: string;
  from: Date | null;
  /** The project's zone: day windows follow its midnights. */
  timezone: string;
  pipeline: PipelineDefinition;
  /** The stream's checkpoint: its open window, the span a bisection learned. */
  state: Pick<StreamInput, 'open' | 'windowLimitMs'>;
  coverage: CoverageInterval[];
  density: number | null;
  /** When the last sweep completed (ms; pipelines with undated records), null: never. */
  sweptAt: number | null;
  /** Keyed pipelines: the keys its SQL selected at the start of the run (null: not keyed). */
  keys: string[] | null;
  /** All history: the oldest week with data, as probed (history-probe.ts); undefined: not probed. */
  historyStart?: number | null;
}
