// What the planner needs to know of each stream, read from the warehouse once per run: its
// checkpoint, its coverage map, the row density its recent reads found, its next page number. A
// window whose pages landed but wait for the rest of it (window-atomic pipelines) continues from
// its last landed page; one that cannot continue (split paging) is dropped and read again. A keyed
// pipeline's keys are selected here, from the warehouse as merged so far (recovered pages included):
// what this run merges is seen by the next run's selection.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { AnalyticsClient } from '../api/analytics-client.js';
import type { ProjectConfig } from '../config/sync-config.js';
import { DEFAULT_TIME_ZONE } from '../core/time-zone.js';
import type { LandedFile, LandingZone } from '../land/landing-zone.js';
import { readCoverage, readLastSweep, readWindowLog } from '../load/coverage-store.js';
import { readKeys } from '../load/read-keys.js';
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
  /** Landed pages of a stream not merged yet because their window is not complete. */
  waiting(pipeline: string, projectId: string): readonly LandedFile[];
  drop(pipeline: string, projectId: string): void;
}

export async function loadStreams(
  conn: DuckDBConnection, zone: LandingZone, sources: readonly StreamSource[], now: Date, pending: WaitingPages,
): Promise<OrgStream[]> {
  const out: OrgStream[] = [];
  for (const { project, pipeline, client } of sources) {
    let state = await readSyncState(conn, project.projectId, pipeline.name);
    const waiting = pending.waiting(pipeline.name, project.projectId);
    if (waiting.length && pipeline.paging.style === 'split') pending.drop(pipeline.name, project.projectId);
    else if (waiting.length) state = continueLanded(state, waiting);
    const coverage = await readCoverage(conn, project.projectId, pipeline.name);
    const log = await readWindowLog(conn, project.projectId, pipeline.name, now.getTime() - DENSITY_LOOKBACK_MS);
    out.push({
      projectId: project.projectId, organization: project.organization, from: project.backfillFrom,
      timezone: project.timezone ?? DEFAULT_TIME_ZONE, pipeline, client, state, coverage,
      density: density(log, coverage),
      sweptAt: pipeline.time.undated ? await readLastSweep(conn, project.projectId, pipeline.name) : null,
      nextSeq: Math.max(state.mergedSeq, zone.lastSeq({ projectId: project.projectId, pipeline: pipeline.name })) + 1,
      keys: await readKeys(conn, pipeline, project.projectId),
    });
  }
  return out;
}

/** The open window of waiting pages, where their last page says it continues. */
function continueLanded(state: StreamState, waiting: readonly LandedFile[]): StreamState {
  const last = waiting.at(-1)!.meta;
  return {
    ...state,
    open: {
      id: last.window.id, from: new Date(last.window.from), to: new Date(last.window.to), purpose: last.window.purpose,
      cursor: last.next.cursor, offset: last.next.offset, pages: waiting.filter((f) => f.meta.window.id === last.window.id).length,
      rows: 0, newRows: 0, changedRows: 0, runId: last.run_id,
    },
  };
}
