// The file format of one landed page (state/landing/<pipeline>/<project>/<seq>.json): everything
// the merger needs, written once, atomically, before the next request (design rule 4).
//
//   { "v": LANDED_VERSION, "project_id", "pipeline", "organization", "seq", "run_id", "fetched_at", "requests", "records", "quarantined",
//     "window": { "id", "from", "to", "purpose", "key"? },   -- key: a keyed read's
//     "request": { "cursor", "offset" },            -- what was sent for this page
//     "next": { "cursor", "offset", "complete" },   -- where the window continues (complete: it ends here)
//     "window_limit_ms",                            -- the stream's bisection hint when it was fetched
//     "invalid": [{ "i", "error", "raw" }],         -- records that failed the contract (quarantined)
//     "x": [{...} | null, ...],                     -- per record the merger reads: the fields the contract
//                                                   -- does not name (null: none); aligned with the records
//     "valid": [...],                               -- only when `invalid` is not empty: the valid records
//     "repaired": true,                             -- the merge repaired the page (merge-rescue.ts): the
//                                                   -- body keeps its page-level fields, not its records
//     "stripped": true,                             -- landed with invalid records (strip-records.ts): the
//                                                   -- body keeps its page-level fields, not its records
//     "body": <the response body exactly as received> }
//
// The records the merger reads are `valid` when present, else the body's records; `x` is aligned
// with them, so DuckDB zips the two lists in one unnest instead of looking extras up per record.
// One definition: the interfaces below (what the writer builds), LANDED_FIELDS (each field's DuckDB
// type, from which the merge's read_json column specs are made: landedColumns) and LANDED_VERSION
// (written by the writer, checked by every reader: checkLandedVersion).
// It lives with the declarations (sync/pipeline) because two stages share it: land writes it, load reads it.
import { quotedIdentifier, quotedString } from '../../core/sql-quoting.js';
import { UnknownLandedVersionError } from '../../core/errors.js';
import type { Purpose } from '../../core/window.js';

/** The format version written in `v` and the only one read (pages landed by every release so far carry 1). */
export const LANDED_VERSION = 1;

export interface LandedWindow {
  /** Unique per window read (a restart after a rejected cursor keeps it). */
  id: string;
  from: string;
  to: string;
  purpose: Purpose;
  /** A keyed read's key (absent for windows of time). */
  key?: string;
}

export interface LandedMeta {
  /** LANDED_VERSION when written; a reader refuses any other (checkLandedVersion). */
  v: number;
  project_id: string;
  pipeline: string;
  /** Key fingerprint of the organization (never the key). */
  organization: string;
  seq: number;
  run_id: string;
  fetched_at: string;
  requests: number;
  /** Records in the body, and how many of them failed the contract. */
  records: number;
  quarantined: number;
  window: LandedWindow;
  /** `filter`: the split filters of a split request. */
  request: { cursor: string | null; offset: number | null; filter?: Record<string, string> };
  /** `truncated`: the API had more than this window read (a page cap, or a split that stayed full). */
  next: { cursor: string | null; offset: number | null; complete: boolean; truncated?: boolean };
  window_limit_ms: number | null;
}

/** A landed page on disk: its file and its metadata (src/sync/land writes it, src/sync/load merges it). */
export interface LandedFile {
  path: string;
  meta: LandedMeta;
}

export interface InvalidRecord {
  i: number;
  error: string;
  raw: unknown;
}

export interface LandedPage extends LandedMeta {
  invalid: InvalidRecord[];
  /** Per record the merger reads: the fields the contract does not name, or null. */
  x: (Record<string, unknown> | null)[];
  valid?: unknown[];
  /** Set when the merge repaired the page (merge-rescue.ts): the body's records were moved to `valid` and `invalid`. */
  repaired?: true;
  /** Set when the page was landed with invalid records (strip-records.ts): its records are in `valid` and `invalid` only. */
  stripped?: true;
}

/**
 * The file's bytes: the metadata as JSON, then the body spliced in verbatim. The body was parsed
 * as JSON before (it is a valid JSON text), so the whole file is one JSON object. Encoded straight
 * into one buffer outside V8's heap: concatenating the strings would make V8 copy the page (often
 * megabytes) into its large-object space, which only a full collection frees.
 */
export function serializeLanded(page: LandedPage, body: string | Buffer): Buffer {
  const head = `${JSON.stringify(page).slice(0, -1)},"body":`;
  const tail = '}\n';
  const out = Buffer.allocUnsafeSlow(Buffer.byteLength(head) + Buffer.byteLength(body) + tail.length);
  let at = out.write(head);
  at += typeof body === 'string' ? out.write(body, at) : body.copy(out, at);
  out.write(tail, at);
  return out;
}

/**
 * A landed file's text split back into its parsed metadata and its body exactly as received (the
 * body is never serialised again: a hostile one may be too deep for JSON.stringify).
 */
export function splitLanded(text: string, path: string): { page: LandedPage; body: string } {
  const parsed = JSON.parse(text) as LandedPage & { body?: unknown };
  checkLandedVersion(parsed, path);
  const { body: _b, ...page } = parsed;
  const prefix = `${JSON.stringify(page).slice(0, -1)},"body":`;
  const end = text.trimEnd();
  if (!text.startsWith(prefix) || !end.endsWith('}')) throw new Error('not a landed page written by docs-etl');
  return { page, body: end.slice(prefix.length, -1) };
}

/** The metadata of a landed file (the body and record lists are dropped). */
export function metaOf(parsed: LandedPage & { body?: unknown }): LandedMeta {
  const { invalid: _i, x: _x, valid: _v, body: _b, repaired: _r, stripped: _s, ...meta } = parsed;
  return meta;
}

/**
 * Each field's DuckDB type when the merge reads landed files with read_json (a struct lists the
 * members read; members it leaves out are skipped). Typed against LandedPage: a field added to the
 * format without its type here does not compile. `body` is the pipeline's own (its record type).
 */
export const LANDED_FIELDS = {
  v: 'UINTEGER', project_id: 'VARCHAR', pipeline: 'VARCHAR', organization: 'VARCHAR', seq: 'UBIGINT', run_id: 'VARCHAR',
  fetched_at: 'TIMESTAMPTZ', requests: 'UINTEGER', records: 'UINTEGER', quarantined: 'UINTEGER',
  window: 'STRUCT(id VARCHAR, "from" TIMESTAMPTZ, "to" TIMESTAMPTZ, "key" VARCHAR)',
  request: 'JSON',
  next: 'STRUCT(truncated BOOLEAN)',
  window_limit_ms: 'BIGINT',
  invalid: 'STRUCT(i INTEGER, error VARCHAR, raw JSON)[]',
  x: 'JSON[]',
  valid: 'JSON[]',
  repaired: 'BOOLEAN',
  stripped: 'BOOLEAN',
} as const satisfies Record<keyof LandedPage, string>;

/**
 * The `columns = {…}` entries of read_json for these landed fields, with their LANDED_FIELDS types
 * unless `types` gives another (a narrower struct: `invalid` read for its positions only, `valid`
 * as the pipeline's records), plus any extra entries (the body).
 */
export function landedColumns(fields: readonly (keyof LandedPage)[], types: Partial<Record<keyof LandedPage, string>> = {},
  extra: Record<string, string> = {}): string {
  const entries: [string, string][] = [...fields.map((f): [string, string] => [f, types[f] ?? LANDED_FIELDS[f]]), ...Object.entries(extra)];
  return entries.map(([name, type]) => `${quotedIdentifier(name)}: ${quotedString(type)}`).join(', ');
}

/** Refuses a landed page of a format this version does not read (a newer docs-etl landed it, or it is not a landed page). */
export function checkLandedVersion(page: { v?: unknown }, path: string): void {
  if (page.v !== LANDED_VERSION) throw new UnknownLandedVersionError(path, page.v, LANDED_VERSION);
}
