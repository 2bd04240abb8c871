// `docs-etl export-parquet --out DIR`: the warehouse as a Hive-partitioned Parquet lake, rewriting
// only the partitions that changed. It reads the published read snapshot, so it never waits for a
// sync nor blocks one.
// Its options and the lake location are checked with light modules; the export (DuckDB, the lake
// writer) is loaded only after (export-parquet-action.ts).
import { Command, InvalidArgumentError } from 'commander';
import { warehousePath } from '../../core/paths.js';
import { parseLakeLocation } from '../../outputs/lake/lake-location.js';
import type { CommandFactory } from './index.js';

export interface ExportFlags {
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
      const { runExportParquetCommand } = await import('./export-parquet-action.js');
      await runExportParquetCommand(ctx, setExitCode, flags, path);
    });
