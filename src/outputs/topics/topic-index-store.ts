// What the hourly placement scores new questions with (assign-new.ts), kept in the warehouse between
// steps (gap_topic_index, sql/migrations/0038): the topic index (topic-index.ts) and the document
// frequencies of the last full re-clustering, as one snapshot. Building the index from
// gap_topic_terms reads about 170,000 rows at 7,000 topics: most of an hourly step's DuckDB time.
// Validity has one rule: a snapshot is used only when its source_key is the key of the rows now
// (sql/topics/index-key.sql), computed when it was written, after the step's writes and in their
// transaction on the hourly path. A step killed before writing it, a full re-clustering or any other
// change of the rows leaves a snapshot that is not used; the rows are read instead and a new one written.
import { blobValue, type DuckDBBlobValue, type DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from '../../warehouse/sql-files.js';
import { loadTopicIndex, topicIndexFromSnapshot, type TopicIndex, type TopicIndexSnapshot } from './topic-index.js';

/** Language → term → document frequency (term '' → the language's questions). */
export type DocumentFrequencies = Map<string, Map<string, number>>;

export interface PlacementModel {
  index: TopicIndex;
  dfs: DocumentFrequencies;
  /** Where it came from: the stored snapshot, or the rows (none stored, or stale). */
  source: 'snapshot' | 'rows';
}

/** Snapshot layout: FORMAT, then the JSON part's length, the JSON part, then the typed arrays in order. */
const FORMAT = 1;

/** The stored snapshot when it is of the current rows, else the model read from the rows. */
export async function loadPlacementModel(conn: DuckDBConnection, projectId: string): Promise<PlacementModel> {
  const key = await sourceKey(conn, projectId);
  const rows = (await conn.runAndReadAll('SELECT source_key, snapshot FROM gap_topic_index WHERE project_id = $project', { project: projectId })).getRows();
  const stored = rows.length === 1 && rows[0]![0] === key ? decode((rows[0]![1] as DuckDBBlobValue).bytes) : undefined;
  if (stored) return { ...stored, source: 'snapshot' };
  return { index: await loadTopicIndex(conn, projectId), dfs: await readDocumentFrequencies(conn, projectId), source: 'rows' };
}

/** Replaces the project's snapshot with this model, keyed by the rows as they are now (after the step's writes). */
export async function savePlacementModel(conn: DuckDBConnection, projectId: string, now: Date, model: Pick<PlacementModel, 'index' | 'dfs'>): Promise<void> {
  const key = await sourceKey(conn, projectId);
  await conn.run('DELETE FROM gap_topic_index WHERE project_id = $project', { project: projectId });
  await conn.run('INSERT INTO gap_topic_index VALUES ($project, $key, $snapshot, $now)', {
    project: projectId, key, snapshot: blobValue(encode(model.index.snapshot(), model.dfs)), now: now.toISOString(),
  });
}

async function sourceKey(conn: DuckDBConnection, projectId: string): Promise<string> {
  return String((await conn.runAndReadAll(sqlFile('topics/index-key.sql'), { project: projectId })).getRows()[0]![0]);
}

/**
 * The document frequencies of the last full re-clustering (gap_topic_df: the terms of its
 * in-memory questions, about 21,000 rows at 100,000 turns), by column.
 */
async function readDocumentFrequencies(conn: DuckDBConnection, projectId: string): Promise<DocumentFrequencies> {
  const [langs, terms, dfs] = (await conn.runAndReadAll(sqlFile('topics/batch-df.sql'), { project: projectId })).getColumnsJS() as [string[], string[], number[]];
  const out: DocumentFrequencies = new Map();
  for (let k = 0; k < dfs.length; k++) {
    let m = out.get(langs[k]!);
    if (!m) out.set(langs[k]!, (m = new Map()));
    m.set(terms[k]!, Number(dfs[k]));
  }
  return out;
}

interface Strings {
  terms: string[];
  ids: string[];
  languages: string[];
  /** Per language: its terms and, in the typed part, their frequencies. */
  df: [language: string, terms: string[]][];
}

function encode(s: TopicIndexSnapshot, dfs: DocumentFrequencies): Uint8Array {
  const df = [...dfs].map(([language, m]): [string, string[]] => [language, [...m.keys()]]);
  const counts = Int32Array.from([...dfs.values()].flatMap((m) => [...m.values()]));
  const strings: Strings = { terms: s.terms, ids: s.ids, languages: s.languages, df };
  const json = Buffer.from(JSON.stringify(strings));
  const parts = [Int32Array.of(FORMAT, json.length), json, s.offsets, s.termIds, s.weights, counts];
  return Buffer.concat(parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
}

/** The model of a snapshot, or undefined when it is not one this code wrote (another format, cut short). */
function decode(bytes: Uint8Array): Omit<PlacementModel, 'source'> | undefined {
  try {
    return decodeParts(bytes);
  } catch {
    return undefined;
  }
}

function decodeParts(bytes: Uint8Array): Omit<PlacementModel, 'source'> | undefined {
  const reader = new Reader(bytes);
  const [format, jsonLength] = reader.ints(2) ?? [];
  if (format !== FORMAT || jsonLength === undefined) return undefined;
  const text = reader.bytes(jsonLength);
  if (!text) return undefined;
  const s = JSON.parse(Buffer.from(text).toString('utf8')) as Strings;
  if (![s.terms, s.ids, s.languages, s.df].every(Array.isArray) || s.ids.length !== s.languages.length) return undefined;
  const offsets = reader.ints(s.ids.length + 1);
  const rows = offsets?.[s.ids.length];
  const termIds = rows === undefined ? undefined : reader.ints(rows);
  const weights = rows === undefined ? undefined : reader.doubles(rows);
  const counts = reader.ints(s.df.reduce((n, [, terms]) => n + terms.length, 0));
  if (!offsets || !termIds || !weights || !counts || !reader.done()) return undefined;
  const dfs: DocumentFrequencies = new Map();
  let k = 0;
  for (const [language, terms] of s.df) dfs.set(language, new Map(terms.map((t) => [t, counts[k++]!])));
  return { index: topicIndexFromSnapshot({ terms: s.terms, ids: s.ids, languages: s.languages, offsets, termIds, weights }), dfs };
}

/** Reads typed parts in order, copied out (a BLOB's bytes need not be aligned for a typed view). */
class Reader {
  private at = 0;
  constructor(private readonly buf: Uint8Array) {}

  bytes(n: number): Uint8Array | undefined {
    if (!Number.isInteger(n) || n < 0 || this.at + n > this.buf.length) return undefined;
    const out = new Uint8Array(this.buf.subarray(this.at, this.at + n));
    this.at += n;
    return out;
  }

  ints(n: number): Int32Array | undefined {
    const b = this.bytes(4 * n);
    return b && new Int32Array(b.buffer, 0, n);
  }

  doubles(n: number): Float64Array | undefined {
    const b = this.bytes(8 * n);
    return b && new Float64Array(b.buffer, 0, n);
  }

  done(): boolean {
    return this.at === this.buf.length;
  }
}
