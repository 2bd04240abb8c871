// What the planner needs to know of each stream, read from the warehouse once per run: its
// checkpoint (where the merger says a window whose pages landed but wait for the rest of it
// resumes: Merger.resume), its coverage map, the row density its recent reads found, its next page
// number. A keyed pipeline's keys are selected here, from the warehouse as merged so far
// (recovered pages included): what this run merges is seen by the next run's selection.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { AnalyticsClient } from '../pipeline/page-fetch.js';
import type { ProjectConfig } from '../../config/sync-config.js';
import { DEFAULT_TIME_ZONE } from '../../core/time-zone.js';
import type { LandingZone } from '../land/landing-zone.js';
import { readCoverage, readLastSweep, readWindowLog } from '../../warehouse/coverage-store.js';
import { readKeys } from '../load/read-keys.js';
import { readParked } from '../load/parked-windows.js';
import { readHistoryProbe } from '../../warehouse/history-probes.js';
import { readSyncState, type StreamState } from '../load/sync-state.js';
import { DENSITY_LOOKBACK_MS, density } from '../plan/density.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import type { OrgStream } from './run-org.js';

export interface StreamSource {
  project: ProjectConfig;
  pipeline: PipelineDefinition;
  client: AnalyticsClient;
}

export interface WaitingPages {
  /** The checkpoint a stream resumes from, its landed pages that wait for the rest of their window considered. */
  resume(pipeline: PipelineDefinition, projectId: string, state: StreamState): StreamState;
}

export async function loadStreams(
  conn: DuckDBConnection, zone: LandingZone, sources: readonly StreamSource[], now: Date, pending: WaitingPages,
): Promise<OrgStream[]> {
  const out: OrgStream[] = [];
  for (const { project, pipeline, client } of sources) {
    const state = pending.resume(pipeline, project.projectId, await readSyncState(conn, project.projectId, pipeline.name));
    const coverage = await readCoverage(conn, project.projectId, pipeline.name);
    const log = await readWindowLog(conn, project.projectId, pipeline.name, now.getTime() - DENSITY_LOOKBACK_MS);
    out.push({
      projectId: project.projectId, organization: project.organization, from: project.backfillFrom,
      timezone: project.timezone ?? DEFAULT_TIME_ZONE, pipeline, client, state, coverage,
      density: density(log, coverage),
      sweptAt: pipeline.time.undated ? await readLastSweep(conn, project.projectId, pipeline.name) : null,
      nextSeq: Math.max(state.mergedSeq, zone.lastSeq({ projectId: project.projectId, pipeline: pipeline.name })) + 1,
      keys: await readKeys(conn, pipeline, project.projectId),
      parked: await readParked(conn, project.projectId, pipeline.name),
      historyStart: (await readHistoryProbe(conn, project.projectId, pipeline.name))?.historyStart,
    });
  }
  return out;
}
