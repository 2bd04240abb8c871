// Reads one window as an async generator of pages, paging the way the pipeline declares. Order is
// not guaranteed by the API, so nothing here depends on it. A rejected stored cursor restarts the
// window from its start (the merge absorbs the re-read rows); a cursor the server already gave in
// this window ends it with an error instead of looping until the budget is gone. A keyed read (one
// key of a keyed pipeline) is one request of the endpoint with the key in its path and no dates; a
// 400 or 404 for it is about that key (unknown, deleted, malformed) and yields a page saying so.
import { createHash } from 'node:crypto';
import { CursorRejectedError, FatalError, ResponseTooLargeError, RetriableError, RetriesExhaustedError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Window } from '../../core/window.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import { RecordTooLargeError, type AnalyticsClient, type FetchedJson } from '../pipeline/page-fetch.js';
import { PageLimit, quarantineOversized } from './page-limit.js';
import { EndlessPagingError, NO_PROGRESS_PAGES } from './endless-paging.js';

/** Where a window continues: the cursor or offset of its next page (both null: its first page). */
export interface Position {
  cursor: string | null;
  offset: number | null;
}

export interface ExtractedPage {
  /** The body as received, as bytes (landed verbatim). */
  body: Buffer;
  records: unknown[];
  /** What was sent for this page (`filter`: the split filters of a split request). */
  request: Position & { filter?: Record<string, string> };
  /** Where the window continues; `complete`: this page was its last; `truncated`: the API had more. */
  next: Position & { complete: boolean; truncated?: boolean };
  requests: number;
  /** True for the first page after the window was restarted (rejected cursor). */
  restarted: boolean;
  /** A keyed read the API answered 400 or 404: no records; the key is quarantined with this error. */
  missing?: { error: string };
  /** A single record over the body cap: not landed; quarantined with this reason and the head of its text. */
  oversized?: { error: string; raw: unknown };
}

export interface ReadOptions {
  logger: Logger;
  signal?: AbortSignal;
  onRequest?: () => void;
  /** Most pages this read may take (plan/page-cap.ts); unset: no cap. */
  maxPages?: number;
  /**
   * Why a page's page-level fields (totals) cannot be stored, or null: the normalize stage's check
   * (src/sync/normalize/validate-page-fields.ts), passed in by the run.
   */
  pageFieldsProblem: (p: PipelineDefinition, json: unknown) => string | null;
}

/** How many times one run restarts a window on rejected cursors before giving up. */
const MAX_RESTARTS = 3;
export const START: Position = { cursor: null, offset: null };
/** The body landed for a keyed read the API refused (400, 404, over the cap): JSON null. */
const NULL_BODY = Buffer.from('null');

export async function* readWindow(
  client: AnalyticsClient, pipeline: PipelineDefinition, projectId: string, window: Window, start: Position, opts: ReadOptions,
): AsyncGenerator<ExtractedPage> {
  if (pipeline.paging.style === 'split') {
    yield* readSplit(client, pipeline, projectId, window, opts);
    return;
  }
  if (window.purpose === 'keyed') {
    yield await readKey(client, pipeline, projectId, window, opts);
    return;
  }
  let at = start;
  let restarts = 0;
  let restarted = false;
  let pages = 0;
  const seen = new Set<string>();
  let previous: string | null = null;
  const limit = new PageLimit(pipeline);
  let empty = 0;
  for (;;) {
    let fetched: FetchedJson;
    let oversized: ExtractedPage['oversized'];
    const check = bodyCheck(pipeline, opts);
    try {
      fetched = await client.get(pipeline.endpoint, projectId, params(pipeline, window, at, limit.now), {
        signal: opts.signal, onRequest: check.onRequest, check: check.check, ...(limit.now === 1 && pipeline.recordsField ? { skimRecords: pipeline.recordsField } : {}),
      });
    } catch (err) {
      const kept = check.kept(err);
      const skimmed = err instanceof RecordTooLargeError && err.skimmed.envelope ? err : null;
      if (kept) fetched = kept;
      else if (err instanceof ResponseTooLargeError && limit.canHalve()) {
        // A page over the body cap is read again with half the limit, down to one record.
        limit.halve();
        opts.logger.warn({ projectId, pipeline: pipeline.name, limit: limit.now, reason: err.message }, 'page over the body cap: reading it again with a smaller limit');
        continue;
      } else if (skimmed && limit.now === 1) {
        // One record still over the cap: quarantined by its size and head; the stream moves past it.
        ({ fetched, oversized } = quarantineOversized(skimmed, pipeline, check.sent()));
        opts.logger.warn({ projectId, pipeline: pipeline.name, bytes: skimmed.skimmed.size }, 'a record over the body cap: quarantined by its head, the stream moves past it');
      } else {
        if (!(err instanceof CursorRejectedError)) throw err;
        if (++restarts > MAX_RESTARTS) throw new FatalError(`${err.message}; the window was restarted ${MAX_RESTARTS} times`);
        opts.logger.warn({ projectId, pipeline: pipeline.name, reason: err.message }, 'stored cursor rejected: restarting the window from its start');
        at = START;
        restarted = true;
        seen.clear();
        previous = null;
        continue;
      }
    }
    const page = envelope(pipeline, fetched.json);
    const span = `${window.from.toISOString()} → ${window.to.toISOString()}`;
    refusePageFields(pipeline, fetched.json, span, opts);
    const full = limit.isFull();
    if (full) pages++;
    const next = following(pipeline, at, page, pages, limit.now ?? 0, oversized ? 1 : page.records.length);
    limit.grow();
    if (next.cursor !== null) {
      if (seen.has(next.cursor) || next.cursor === at.cursor) {
        throw new FatalError(`the API returned the same cursor twice in window ${span} (a paging loop): the window was ended, no further requests`);
      }
      seen.add(next.cursor);
    }
    // A page whose records repeat the previous page's exactly (offsets or cursors that do not
    // advance): a paging loop too. Not landed: its data is suspect.
    const digest = page.records.length ? recordsDigest(page.records) : null;
    if (digest !== null && digest === previous) {
      throw new FatalError(`the API returned the same page twice in window ${span} (a paging loop): the window was ended, no further requests`);
    }
    previous = digest;
    empty = page.records.length === 0 && !oversized && !next.complete ? empty + 1 : 0;
    const capped = full && !next.complete && opts.maxPages !== undefined && pages >= opts.maxPages;
    if (capped || empty >= NO_PROGRESS_PAGES) {
      // This page lands (its checkpoint: a later run continues after it); no further request now.
      yield { body: fetched.body, records: page.records, request: at, next, requests: fetched.requests + limit.spent(), restarted };
      throw new EndlessPagingError(capped
        ? `the API kept paging past ${opts.maxPages} pages in window ${span}, more than its plan justifies: the window was ended here, no further requests`
        : `the API kept paging with ${empty} empty pages in a row in window ${span} (hasMore and a fresh cursor each time): the window was ended here, no further requests`);
    }
    yield { body: fetched.body, records: page.records, request: at, next, requests: fetched.requests + limit.spent(), restarted, ...(oversized ? { oversized } : {}) };
    restarted = false;
    if (next.complete) return;
    at = { cursor: next.cursor, offset: next.offset };
  }
}

/**
 * Split paging (no cursor, no offset): a request that says `hasMore` is asked again per value of
 * the next split filter; only the answers that are not split further are yielded (what the split
 * requests cost is carried by them). One answer is held back so the last one can say `complete`.
 */
async function* readSplit(
  client: AnalyticsClient, p: PipelineDefinition, projectId: string, window: Window, opts: ReadOptions,
): AsyncGenerator<ExtractedPage> {
  if (p.paging.style !== 'split') return;
  const splits = p.paging.splits;
  const queue: { filter: Record<string, string>; level: number }[] = [{ filter: {}, level: 0 }];
  let held: ExtractedPage | null = null;
  let unyielded = 0;
  while (queue.length) {
    const { filter, level } = queue.shift()!;
    const fetched = await client.get(p.endpoint, projectId, { ...params(p, window, START), ...filter }, { signal: opts.signal, onRequest: opts.onRequest, check: (json) => { envelope(p, json); } });
    unyielded += fetched.requests;
    const page = envelope(p, fetched.json);
    refusePageFields(p, fetched.json, `${window.from.toISOString()} → ${window.to.toISOString()}`, opts);
    const split = splits[level];
    if (page.hasMore && split) {
      for (const v of split.values) queue.push({ filter: { ...filter, [split.param]: v }, level: level + 1 });
      continue;
    }
    if (held) yield held;
    held = {
      body: fetched.body, records: page.records, request: { ...START, filter }, requests: unyielded, restarted: false,
      next: { ...START, complete: false, truncated: page.hasMore === true },
    };
    unyielded = 0;
  }
  if (held) yield { ...held, requests: held.requests + unyielded, next: { ...held.next, complete: true } };
}

/** One key of a keyed pipeline: its endpoint with `{key}` substituted, read once, without dates. */
async function readKey(client: AnalyticsClient, p: PipelineDefinition, projectId: string, window: Window, opts: ReadOptions): Promise<ExtractedPage> {
  if (window.key === undefined || !p.endpoint.includes('{key}')) throw new FatalError(`pipeline ${p.name}: a keyed read needs a key and an endpoint with {key}`);
  const endpoint = p.endpoint.replaceAll('{key}', encodeURIComponent(window.key));
  const done = { ...START, complete: true };
  let requests = 0;
  const check = bodyCheck(p, { ...opts, onRequest: () => { requests++; opts.onRequest?.(); } });
  try {
    let fetched: FetchedJson;
    try {
      fetched = await client.get(endpoint, projectId, {}, { signal: opts.signal, onRequest: check.onRequest, check: check.check });
    } catch (err) {
      const kept = check.kept(err);
      if (!kept) throw err;
      fetched = kept;
    }
    return { body: fetched.body, records: envelope(p, fetched.json).records, request: START, next: done, requests: fetched.requests, restarted: false };
  } catch (err) {
    // A key whose answer is over the page cap is that key's problem too: quarantined, the
    // pipeline's other keys go on.
    if (err instanceof ResponseTooLargeError) {
      opts.logger.warn({ projectId, pipeline: p.name, key: window.key, reason: err.message }, 'answer for this key over the page cap: quarantined, not read again');
      return { body: NULL_BODY, records: [], request: START, next: done, requests, restarted: false, missing: { error: err.message } };
    }
    if (!(err instanceof FatalError) || (err.status !== 400 && err.status !== 404)) throw err;
    opts.logger.warn({ projectId, pipeline: p.name, key: window.key, reason: err.message }, 'key unknown to the API: quarantined, not read again');
    return { body: NULL_BODY, records: [], request: START, next: done, requests, restarted: false, missing: { error: err.status === 404 ? 'not found (404)' : err.message } };
  }
}

function params(p: PipelineDefinition, w: Window, at: Position, limit?: number): Record<string, string> {
  // A sweep reads the endpoint without dates: the only read that returns records whose time is null.
  const q: Record<string, string> = w.purpose === 'sweep' ? {} : { dateFrom: w.from.toISOString(), dateTo: w.to.toISOString() };
  if (p.paging.style !== 'single') q.limit = String(limit ?? p.paging.limit);
  if (p.paging.style === 'cursor' && at.cursor) q.cursor = at.cursor;
  if (p.paging.style === 'offset') q.offset = String(at.offset ?? 0);
  return q;
}

interface Envelope {
  records: unknown[];
  nextCursor: string | null;
  hasMore: boolean | null;
}

interface BodyCheck {
  onRequest: () => void;
  check: (json: unknown, body: Buffer) => void;
  /** After the client gave up: the last answer, when it failed only the record contract (see below). */
  kept: (err: unknown) => FetchedJson | null;
  /** Requests sent so far. */
  sent: () => number;
}

/**
 * The client's check of a page: a body without the page's paging fields is a broken response,
 * retried like a 5xx. A body that is one record (`recordsField: null`, caller stats) has no
 * paging fields to tell a broken response from a record that breaks the contract: one that fails
 * the record's contract is asked again within the same retries, and only when the last answer
 * still fails it is it kept (a persistently invalid record, quarantined as such).
 */
function bodyCheck(p: PipelineDefinition, opts: ReadOptions): BodyCheck {
  let sent = 0;
  let invalid: { json: unknown; body: Buffer } | null = null;
  return {
    onRequest: () => {
      sent++;
      invalid = null;
      opts.onRequest?.();
    },
    check: (json, body) => {
      envelope(p, json);
      if (p.recordsField === null && !p.record.safeParse(json).success) {
        invalid = { json, body };
        throw new RetriableError(`response does not match the ${p.name} record contract`, 200);
      }
    },
    kept: (err) => (err instanceof RetriesExhaustedError && invalid ? { ...invalid, requests: sent } : null),
    sent: () => sent,
  };
}

/**
 * Page-level fields (totals) the warehouse cannot store end the window before the page lands: one
 * line, the stream reported failing for this run, and the next run reads the window again.
 */
function refusePageFields(p: PipelineDefinition, json: unknown, span: string, opts: ReadOptions): void {
  const problem = opts.pageFieldsProblem(p, json);
  if (problem) {
    throw new FatalError(`the API sent page-level fields the warehouse cannot store in window ${span} (${problem}): the window was ended, nothing from this page was landed; the next run reads it again`);
  }
}

/** The paging fields of a page; a body without them is a broken response (retried like a 5xx). */
function envelope(p: PipelineDefinition, json: unknown): Envelope {
  const o = json as Record<string, unknown> | null;
  const broken = (why: string) => new RetriableError(`response does not match the ${p.name} page contract: ${why}`, 200);
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw broken('not a JSON object');
  const records = p.recordsField === null ? [o] : o[p.recordsField];
  if (!Array.isArray(records)) throw broken(`"${p.recordsField}" is not an array`);
  let nextCursor: string | null = null;
  let hasMore: boolean | null = null;
  if (p.paging.style === 'cursor') {
    if (o.nextCursor !== null && typeof o.nextCursor !== 'string') throw broken('"nextCursor" is not a string or null');
    nextCursor = o.nextCursor as string | null;
  }
  if (p.paging.style === 'offset' || p.paging.style === 'split' || (p.paging.style === 'cursor' && p.paging.hasMore)) {
    if (typeof o.hasMore !== 'boolean') throw broken('"hasMore" is not a boolean');
    hasMore = o.hasMore;
  }
  return { records, nextCursor, hasMore };
}

function following(p: PipelineDefinition, at: Position, page: Envelope, pages: number, limit: number, count: number): ExtractedPage['next'] {
  switch (p.paging.style) {
    case 'cursor': {
      // hasMore without a cursor cannot be followed: the window ends there.
      const more = Boolean(page.nextCursor) && (page.hasMore ?? true);
      const capped = more && p.paging.maxPages !== undefined && pages >= p.paging.maxPages;
      return { cursor: more && !capped ? page.nextCursor : null, offset: null, complete: !more || capped, ...(capped ? { truncated: true } : {}) };
    }
    case 'offset': {
      const more = page.hasMore === true && count > 0;
      return { cursor: null, offset: more ? (at.offset ?? 0) + limit : null, complete: !more };
    }
    case 'single':
    case 'split':
      return { cursor: null, offset: null, complete: true };
  }
}

/**
 * A hash of a page's records (null when they cannot be serialised: too deep, checked later). Record
 * by record: one string of the whole page would be a large V8 object, freed only by a full
 * collection, on every page.
 */
function recordsDigest(records: unknown[]): string | null {
  try {
    const hash = createHash('sha256');
    for (const r of records) hash.update(JSON.stringify(r) ?? 'undefined').update('\n');
    return hash.digest('hex');
  } catch {
    return null;
  }
}
