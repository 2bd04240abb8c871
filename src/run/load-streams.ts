// What the planner needs to know of each stream, read from the warehouse once per run: its
// checkpoint, its coverage map, the row density its recent reads found, its next page number.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { AnalyticsClient } from '../api/analytics-client.js';
import type { ProjectConfig } from '../config/sync-config.js';
import type { LandingZone } from '../land/landing-zone.js';
import { readCoverage, readWindowLog } from '../load/coverage-store.js';
import { DENSITY_LOOKBACK_MS, density } from '../plan/density.js';
import { readSyncState } from '../load/sync-state.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import type { OrgStream } from './run-org.js';

export interface StreamSource {
  project: ProjectConfig;
  pipeline: PipelineDefinition;
  client: AnalyticsClient;
}

export async function loadStreams(conn: DuckDBConnection, zone: LandingZone, sources: readonly StreamSource[], now: Date): Promise<OrgStream[]> {
  const out: OrgStream[] = [];
  for (const { project, pipeline, client } of sources) {
    const state = await readSyncState(conn, project.projectId, pipeline.name);
    const coverage = await readCoverage(conn, project.projectId, pipeline.name);
    const log = await readWindowLog(conn, project.projectId, pipeline.name, now.getTime() - DENSITY_LOOKBACK_MS);
    out.push({
      projectId: project.projectId, organization: project.organization, from: project.backfillFrom, pipeline, client, state, coverage,
      density: density(log, coverage),
      nextSeq: Math.max(state.mergedSeq, zone.lastSeq({ projectId: project.projectId, pipeline: pipeline.name })) + 1,
    });
  }
  return out;
}

