// `docs-etl export-parquet --out DIR`: the warehouse as a Hive-partitioned Parquet lake, rewriting
// only the partitions that changed. It reads the published read snapshot, so it never waits for a
// sync nor blocks one.
import type { DuckDBConnection } from '@duckdb/node-api';
import { Command, InvalidArgumentError } from 'commander';
import { systemClock } from '../../core/clock.js';
import { EXIT, UsageError } from '../../core/errors.js';
import { warehousePath } from '../../core/paths.js';
import { LAKE_TABLES } from '../lake-tables.js';
import { exportLake, lakeStagingDir } from '../../outputs/lake/export-lake.js';
import { parseLakeLocation } from '../../outputs/lake/lake-location.js';
import { formatExportSummary } from '../../outputs/lake/export-summary.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { explainReadError } from '../../warehouse/warehouse.js';
import { openReader } from '../../sync/publish/open-reader.js';
import { readPathFor } from '../../sync/publish/snapshot.js';
import type { CommandFactory } from './index.js';

interface ExportFlags {
  out: string;
  warehouse?: string;
  full?: boolean;
  project?: string[];
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), nonBlank(value)];

function nonBlank(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('must not be empty');
  return value;
}

export const exportParquetCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('export-parquet')
    .description('write the warehouse as a Parquet lake, Hive-partitioned by project and UTC day; only changed partitions are rewritten')
    .requiredOption('--out <dir|s3://bucket/prefix>', 'the lake: a local directory (created if missing) or s3://bucket/prefix', nonBlank)
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .option('--full', 'rewrite every partition, not only the changed ones')
    .option('--project <id>', 'only this project\'s partitions (repeatable; tables of one file are always whole)', collect)
    .addHelpText('after', `
Layout (docs/lake.md): every user table of the warehouse, e.g.
DIR/conversations/project_id=<p>/date=YYYY-MM-DD/part-0.parquet, DIR/feedback/project_id=<p>/part-0.parquet,
DIR/sync_runs/part-0.parquet, and DIR/_docs_etl/ (manifest, lock). On S3 each upload gets a new name
part-<id>.parquet and _docs_etl/manifest.json, written last, lists the current files.
Environment: DOCS_ETL_WAREHOUSE (default warehouse path), LOG_LEVEL; for s3:// the standard AWS variables
(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION, AWS_PROFILE,
AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL: path-style then; DOCS_ETL_S3_PATH_STYLE=true|false overrides).
Deadlines: DOCS_ETL_S3_TIMEOUT (each S3 call, default 5m), DOCS_ETL_LAKE_DEADLINE (the whole export, default 2h).
Exit codes: 0 done (or stopped by a signal; the next export continues), 1 failed, 2 bad usage.`)
    .action(async (flags: ExportFlags) => {
      parseLakeLocation(flags.out);
      const path = warehousePath(flags.warehouse, ctx.env);
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
    });

/** A mistyped --project would export nothing and exit 0: it is a usage error naming the known projects. */
async function checkKnownProjects(conn: DuckDBConnection, path: string, asked: string[]): Promise<void> {
  const known = (await conn.runAndReadAll(sqlFile('export/known-projects.sql'))).getRows().map((r) => String(r[0]));
  const unknown = asked.filter((p) => !known.includes(p));
  if (unknown.length) {
    const names = unknown.map((p) => JSON.stringify(p)).join(', ');
    throw new UsageError(`unknown project ${names} in warehouse ${path}: ${known.length ? `known projects are ${known.join(', ')}` : 'it has no projects yet (run `docs-etl sync` first)'}`);
  }
}
