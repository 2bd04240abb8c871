// Where things live in the Parquet lake. The layout is a public interface (docs/lake.md):
//
//   DIR/conversations/project_id=<p>/date=YYYY-MM-DD/part-0.parquet
//   DIR/sources/project_id=<p>/date=YYYY-MM-DD/part-0.parquet
//   DIR/sync_runs/part-0.parquet
//   DIR/quarantine/part-0.parquet
//   DIR/_docs_etl/manifest.json, DIR/_docs_etl/lock      (the export's own state)
//
// Every data file has ONE final name, and a new version is renamed over it, so a reader globbing
// `**/*.parquet` sees either the old or the new file of a partition, never both and never half of
// one. Files in flight are named `.part-0.<token>.parquet.tmp`: the leading dot hides them from
// Hadoop-style listings (Spark, Trino, Hive) and the `.tmp` suffix keeps them out of `*.parquet` globs.
import { join } from 'node:path';

export const PARTITIONED_TABLES = ['conversations', 'sources'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

export const SMALL_TABLES = ['sync_runs', 'quarantine'] as const;
export type SmallTable = (typeof SMALL_TABLES)[number];

export const DATA_FILE = 'part-0.parquet';
/** Our final data file names (only these are ever deleted as orphans). */
export const DATA_FILE_RE = /^part-\d+\.parquet$/;
/** Our temporary names: data files and the manifest in flight. Anything else is left alone. */
export const TEMP_FILE_RE = /^\.(part-\d+|manifest)\.[A-Za-z0-9-]+\.(parquet|json)\.tmp$/;

export const META_DIR = '_docs_etl';
export const MANIFEST_FILE = 'manifest.json';
export const LOCK_FILE = 'lock';

export interface PartitionKey {
  projectId: string;
  /** UTC day of occurred_at, YYYY-MM-DD. */
  date: string;
}

export const partitionId = (k: PartitionKey): string => JSON.stringify([k.projectId, k.date]);

export function tempName(finalName: string, token: string): string {
  const dot = finalName.lastIndexOf('.');
  return `.${finalName.slice(0, dot)}.${token}${finalName.slice(dot)}.tmp`;
}

/** Characters Hive escapes in partition values (FileUtils.escapePathName); Spark, Trino and DuckDB decode them. */
// eslint-disable-next-line no-control-regex
const HIVE_ESCAPE_RE = /[\u0000-\u001f"#%'*/:=?\\\u007f{[\]^]/g;

export function escapeHiveValue(value: string): string {
  if (value === '') return '__HIVE_DEFAULT_PARTITION__';
  return value.replace(HIVE_ESCAPE_RE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function unescapeHiveValue(text: string): string {
  if (text === '__HIVE_DEFAULT_PARTITION__') return '';
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Partition directory relative to the lake root, with '/' separators (also the manifest's form). */
export function partitionDir(table: PartitionedTable, k: PartitionKey): string {
  return `${table}/project_id=${escapeHiveValue(k.projectId)}/date=${k.date}`;
}

export function partitionFile(table: PartitionedTable, k: PartitionKey): string {
  return `${partitionDir(table, k)}/${DATA_FILE}`;
}

export function smallTableFile(table: SmallTable): string {
  return `${table}/${DATA_FILE}`;
}

/** Absolute path of a lake-relative path. */
export const lakePath = (outDir: string, rel: string): string => join(outDir, ...rel.split('/'));

/** The half-open UTC instant range of a partition's day, as ISO strings for the COPY filters. */
export function dayRange(date: string): { from: string; to: string } {
  const from = new Date(`${date}T00:00:00.000Z`);
  if (Number.isNaN(from.getTime())) throw new Error(`invalid partition date ${date}`);
  return { from: from.toISOString(), to: new Date(from.getTime() + 86_400_000).toISOString() };
}
