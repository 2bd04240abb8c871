// Where things live in the Parquet lake, for any declared table (src/sync/pipeline/lake-table.ts). The
// layout is a public interface (docs/lake.md):
//
//   LAKE/<table>/project_id=<p>/date=YYYY-MM-DD/part-<id>.parquet   layout 'project-day'
//   LAKE/<table>/project_id=<p>/part-<id>.parquet                   layout 'project'
//   LAKE/<table>/part-<id>.parquet                                  layout 'none'
//   LAKE/_docs_etl/manifest.json, LAKE/_docs_etl/lock               the export's own state
//
// On a local disk a file is renamed over its one final name `part-0.parquet` (a reader globbing
// `**/*.parquet` sees the old or the new file, never both). On object storage, where nothing can
// be renamed, every upload gets a new name `part-<run token>.parquet` and is never overwritten:
// the manifest is the commit point, and what it no longer names is deleted after it is written.
// Local files in flight are named by tempName (src/warehouse/partition-files.ts).
import type { LakeTable } from '../../sync/pipeline/lake-table.js';
import { escapeHiveValue } from '../../warehouse/partition-files.js';

export const STABLE_FILE = 'part-0.parquet';
/** Our final data file names (only these are ever deleted as orphans). */
export const DATA_FILE_RE = /^part-[a-z0-9-]+\.parquet$/;
/** Our temporary names: data files and the manifest in flight. Anything else is left alone. */
export const TEMP_FILE_RE = /^\.(part-\d+|manifest)\.[A-Za-z0-9-]+\.(parquet|json)\.tmp$/;

export const META_DIR = '_docs_etl';
export const MANIFEST_KEY = `${META_DIR}/manifest.json`;
export const LOCK_KEY = `${META_DIR}/lock`;

/** One file of a table: which project and day it holds (null where the layout has no such level). */
export interface LakePartition {
  projectId: string | null;
  /** YYYY-MM-DD: the UTC day of an 'instant' column, or the value of a 'date' column. */
  date: string | null;
}

export const partitionId = (table: string, p: LakePartition): string => JSON.stringify([table, p.projectId, p.date]);

/** Directory of a partition relative to the lake root, '/'-separated (also the manifest's form). */
export function partitionDir(table: string, p: LakePartition): string {
  let dir = table;
  if (p.projectId !== null) dir += `/project_id=${escapeHiveValue(p.projectId)}`;
  if (p.date !== null) dir += `/date=${p.date}`;
  return dir;
}

/** The key a partition's file gets: the stable name, or a unique one (object storage). */
export function partitionKey(table: string, p: LakePartition, unique: string | null): string {
  return `${partitionDir(table, p)}/${unique === null ? STABLE_FILE : `part-${unique}.parquet`}`;
}

/** Whether a key is one of our data files under a declared table (the only keys ever deleted as orphans). */
export function isDataKey(key: string, tables: ReadonlySet<string>): boolean {
  const parts = key.split('/');
  return parts.length >= 2 && parts.length <= 4 && tables.has(parts[0]!) && DATA_FILE_RE.test(parts.at(-1)!);
}

/** The half-open UTC instant range of a day, as ISO strings for the COPY filters. */
export function dayRange(date: string): { from: string; to: string } {
  const from = new Date(`${date}T00:00:00.000Z`);
  if (Number.isNaN(from.getTime())) throw new Error(`invalid partition date ${date}`);
  return { from: from.toISOString(), to: new Date(from.getTime() + 86_400_000).toISOString() };
}

const IDENT_RE = /^[a-z_][a-z0-9_]*$/;

/** Declarations are spliced into SQL as identifiers: only plain lower-case names are accepted. */
export function checkDeclaration(t: LakeTable): void {
  const names = [t.name, ...t.order, ...(t.layout.by === 'project-day' ? [t.layout.column] : [])];
  const bad = names.find((n) => !IDENT_RE.test(n));
  if (bad !== undefined) throw new Error(`lake table declaration ${JSON.stringify(t.name)}: ${JSON.stringify(bad)} is not a plain column name`);
  if (t.name === META_DIR) throw new Error(`lake table declaration: ${META_DIR} is reserved`);
}
