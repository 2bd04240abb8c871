// Test fixtures for the lake: a real DuckDB warehouse filled through SQL, and the lake read back
// with hyparquet (an independent Parquet reader, so the check is not DuckDB reading its own files).
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { unescapeHiveValue } from '../../src/warehouse/partition-files.js';

export const PROJECTS = ['acme', 'beta', 'docs/ü b'] as const;
export const START = '2026-03-01';

/**
 * Fills conversations, sources, sync_runs and quarantine: `days` UTC days from START for each
 * project, `turnsPerDay` turns a day (timestamps with microseconds), unicode, NULLs, extra JSON,
 * 0-3 sources per turn; plus a turn stored from a -02:00 offset just before local midnight (its UTC
 * day is the next day).
 */
export async function fillWarehouse(conn: DuckDBConnection, o: { days: number; turnsPerDay: number }): Promise<void> {
  const n = o.turnsPerDay;
  await conn.run(`
    INSERT INTO conversations
    SELECT pr.p, 'conv-' || d || '-' || t,
      TIMESTAMPTZ '${START} 00:00:00+00' + to_days(CAST(d AS INTEGER)) + to_microseconds(CAST((t * 86399000000) // ${n} + t * 7 AS BIGINT)),
      'Wie geht''s "' || t || '"? 日本語 🚀\n' || pr.p, 'réponse ' || t,
      CASE WHEN t % 5 = 0 THEN 'clarifying_question' ELSE 'answer' END,
      CASE WHEN t % 3 = 0 THEN 'unanswered' ELSE 'answered' END,
      CASE WHEN t % 4 = 0 THEN NULL ELSE 'cat-' || (t % 4) END,
      CASE WHEN t % 2 = 0 THEN NULL ELSE 'https://docs.example.com/p/' || t || '?q=1' END,
      CASE WHEN t % 2 = 0 THEN NULL ELSE '/p/' || t END,
      CASE WHEN t % 3 = 0 THEN CAST('{"locale":"de","n":' || t || ',"tags":["ä","b"]}' AS JSON) ELSE NULL END,
      TIMESTAMPTZ '2026-06-01 00:00:00+00', TIMESTAMPTZ '2026-06-02 00:00:00+00', TIMESTAMPTZ '2026-06-01 00:00:00+00', NULL
    FROM (VALUES ${PROJECTS.map((p) => `('${p}')`).join(', ')}) pr(p), range(${o.days}) r1(d), range(${n}) r2(t)`);
  await conn.run(`
    INSERT INTO conversations VALUES ('acme', 'late-turn', TIMESTAMPTZ '${START}T23:30:00.000001-02:00', 'q', 'r', 'answer',
      'answered', NULL, NULL, NULL, NULL, now(), now(), TIMESTAMPTZ '2026-06-01 00:00:00+00', NULL)`);
  await conn.run(`
    INSERT INTO sources
    SELECT c.project_id, c.id, c.occurred_at, CAST(k + 1 AS INTEGER), 'Titel ' || k || ' — «ü»', 'https://docs.example.com/s/' || k
    FROM conversations c, range(CAST(hash(c.id) % 4 AS BIGINT)) r(k)`);
  await conn.run(`
    INSERT INTO sync_runs VALUES
      ('r1', 'acme', 'assistant', '2026-06-01 00:00:00+00', '2026-06-01 00:01:00.5+00', 'succeeded', NULL, '2026-06-01 00:00:00+00', 3, 2, 2000, 1, NULL),
      ('r2', 'beta', 'assistant', '2026-06-02 00:00:00+00', NULL, 'running', '2026-05-31 00:00:00+00', '2026-06-02 00:00:00+00', 0, 0, 0, 0, 'boom: é')`);
  await conn.run(`
    INSERT INTO quarantine VALUES
      ('acme', 'r1', '2026-06-01 00:00:30+00', 'timestamp: invalid', '{"id":"x","timestamp":"yesterday"}', 'assistant_conversations'),
      ('beta', 'r2', '2026-06-02 00:00:30+00', 'query: required', NULL, NULL)`);
}

export type Row = Record<string, unknown>;

/** Rows of a warehouse table as the lake should hold them: timestamps as epoch micros, JSON as text. */
export async function warehouseTable(conn: DuckDBConnection, table: 'conversations' | 'sources' | 'sync_runs' | 'quarantine'): Promise<Row[]> {
  // content_hash is the merge's change detector, not part of the lake's contract.
  const cols = (await conn.runAndReadAll(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $t AND column_name <> 'content_hash' ORDER BY ordinal_position`, { t: table }))
    .getRowObjectsJS();
  const select = cols.map((c) => {
    const n = String(c.column_name);
    if (String(c.data_type).startsWith('TIMESTAMP')) return `epoch_us(${n}) AS ${n}`;
    if (String(c.data_type) === 'JSON') return `CAST(${n} AS VARCHAR) AS ${n}`;
    return n;
  });
  return sortRows((await conn.runAndReadAll(`SELECT ${select.join(', ')} FROM ${table}`)).getRowObjectsJS());
}

export interface LakeFileRead {
  rel: string;
  projectId?: string;
  date?: string;
  metadata: FileMetaData;
  rows: Row[];
}

/** Every `*.parquet` file under dir (as a `**\/*.parquet` glob sees it), read with hyparquet. */
export async function readLakeFiles(dir: string, table?: string): Promise<LakeFileRead[]> {
  const root = table ? join(dir, table) : dir;
  const files = listFiles(root).filter((f) => f.endsWith('.parquet'));
  const out: LakeFileRead[] = [];
  for (const f of files) {
    const file = await asyncBufferFromFile(f);
    const metadata = await parquetMetadataAsync(file);
    const rows = await parquetReadObjects({
      file, metadata, compressors, parsers: { timestampFromMicroseconds: (us: bigint) => us },
    }) as Row[];
    const rel = relative(dir, f).split(sep).join('/');
    const project = /project_id=([^/]*)/.exec(rel)?.[1];
    const date = /date=([^/]*)/.exec(rel)?.[1];
    out.push({ rel, metadata, rows, ...(project !== undefined ? { projectId: unescapeHiveValue(project) } : {}), ...(date ? { date } : {}) });
  }
  return out;
}

export function listFiles(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names.map((n) => join(root, n)).filter((p) => statSync(p, { throwIfNoEntry: false })?.isFile()).sort();
}

/** Rows in a stable order (bigints compared as text), for comparing two sources. */
export function sortRows(rows: Row[]): Row[] {
  const k = (r: Row) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  return [...rows].map((r) => ({ ...r })).sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
}

/** UTC day of epoch micros. */
export const utcDay = (us: unknown): string => new Date(Number(BigInt(us as bigint) / 1000n)).toISOString().slice(0, 10);

/** inode and mtime of every file under dir, to see which a run replaced. */
export function fileStamps(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((f) => {
    const s = statSync(f, { bigint: true });
    return [relative(dir, f).split(sep).join('/'), `${s.ino}:${s.mtimeNs}`];
  }));
}

/** Opens (or creates) the warehouse file, fills it as fillWarehouse does, and closes it. */
export async function filledWarehouseFile(warehouse: string, o: { days: number; turnsPerDay: number }): Promise<void> {
  const wh = await openWarehouse(warehouse);
  try {
    await fillWarehouse(wh.conn, o);
  } finally {
    wh.close();
  }
}
