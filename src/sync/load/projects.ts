// The `projects` table: each configured project and the IANA zone its days are counted in. A sync
// upserts it from its configuration before anything else, so the views' day boundaries follow the
// configuration the warehouse is synced with (a project without a declared zone is UTC).
import type { DuckDBConnection } from '@duckdb/node-api';
import { FatalError } from '../../core/errors.js';
import { DEFAULT_TIME_ZONE } from '../../core/time-zone.js';
import { sqlFile } from '../../warehouse/sql-files.js';

export interface ProjectZone {
  projectId: string;
  /** IANA name; UTC when absent. */
  timezone?: string;
}

export async function upsertProjects(conn: DuckDBConnection, projects: readonly ProjectZone[], now: Date): Promise<void> {
  for (const p of projects) {
    const timezone = p.timezone ?? DEFAULT_TIME_ZONE;
    // The views would fail for every reader on a zone DuckDB does not know: refuse it here instead.
    try {
      await conn.run("SELECT timezone($tz, TIMESTAMPTZ '2000-01-01 00:00:00+00')", { tz: timezone });
    } catch {
      throw new FatalError(`project "${p.projectId}": time zone "${timezone}" is unknown to DuckDB; use an IANA name such as Europe/Berlin`);
    }
    await conn.run(sqlFile('load/upsert-projects.sql'), { project_id: p.projectId, timezone, now: now.toISOString() });
  }
}
