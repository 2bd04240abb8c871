// The `export-parquet` command's work, loaded only once its options and the lake location have been
// checked (src/cli/commands/export-parquet.ts): a usage error never loads DuckDB or the lake writer.
import type { DuckDBConnection } from '@duckdb/node-api';
import { systemClock } from '../../core/clock.js';
import { EXIT, UsageError } from '../../core/errors.js';
import { LAKE_TABLES } from '../lake-tables.js';
import { exportLake, lakeStagingDir } from '../../outputs/lake/export-lake.js';
import { formatExportSummary } from '../../outputs/lake/export-summary.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { explainReadError } from '../../warehouse/warehouse.js';
import { openReader } from '../../sync/publish/open-reader.js';
import { readPathFor } from '../../sync/publish/snapshot.js';
import type { CliContext } from '../context.js';
import type { ExportFlags } from './export-parquet.js';

/** One `docs-etl export-parquet` of the warehouse at `path`; sets the exit code. */
export async function runExportParquetCommand(ctx: CliContext, setExitCode: (code: number) => void, flags: ExportFlags, path: string): Promise<void> {
  const wh = await openReader({ warehouse: path, readPath: readPathFor(path, ctx.env) });
  try {
    if (flags.project) await checkKnownProjects(wh.conn, path, flags.project);
    const summary = await exportLake(
      { conn: wh.conn, logger: ctx.logger, clock: systemClock, signal: ctx.signal, tables: LAKE_TABLES, env: ctx.env, stagingDir: lakeStagingDir(path) },
      { outDir: flags.out, full: Boolean(flags.full), projects: flags.project },
    );
    ctx.stdout.write(`${formatExportSummary(summary)}\n`);
    setExitCode(EXIT.ok);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw explainReadError(path, err);
  } finally {
    wh.close();
  }
}

/** A mistyped --project would export nothing and exit 0: it is a usage error naming the known projects. */
async function checkKnownProjects(conn: DuckDBConnection, path: string, asked: string[]): Promise<void> {
  const known = (await conn.runAndReadAll(sqlFile('export/known-projects.sql'))).getRows().map((r) => String(r[0]));
  const unknown = asked.filter((p) => !known.includes(p));
  if (unknown.length) {
    const names = unknown.map((p) => JSON.stringify(p)).join(', ');
    throw new UsageError(`unknown project ${names} in warehouse ${path}: ${known.length ? `known projects are ${known.join(', ')}` : 'it has no projects yet (run `docs-etl sync` first)'}`);
  }
}
