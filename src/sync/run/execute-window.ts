// Reads one planned window: page after page (the next requested while this one lands), each page
// validated, landed (its checkpoint) and handed to the merger. A stop request takes effect after
// the page in flight has landed; so does a pause (the budget left is the reserve), which leaves the
// window open for a later run. A window that keeps timing out or failing is reported as such, for
// the caller to bisect.
import { ulid } from 'ulid';
import type { AnalyticsClient } from '../pipeline/page-fetch.js';
import { RetriesExhaustedError, StoppedError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Window } from '../../core/window.js';
import { readWindow, START, type ExtractedPage, type Position } from '../extract/read-window.js';
import type { LandingZone } from '../land/landing-zone.js';
import { LANDED_VERSION, type LandedFile } from '../pipeline/landed-page.js';
import { strippedBody } from '../land/strip-records.js';
import { pageFieldsProblem } from '../normalize/validate-page-fields.js';
import { validateRecords } from '../normalize/validate-records.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import { fieldsOf } from '../pipeline/json-structure.js';

export interface WindowTask {
  pipeline: PipelineDefinition;
  projectId: string;
  organization: string;
  runId: string;
  window: Window;
  /** Continue an open window (its id, where it stopped); absent: a new window. */
  resume?: { id: string; cursor: string | null; offset: number | null; pages: number };
  /** Next sequence number of the stream (advanced as pages land). */
  seq: { next: number };
  windowLimitMs: number | null;
  /** Most pages this read may take (see pageCap); unset: no cap. */
  maxPages?: number;
}

export interface WindowDeps {
  client: AnalyticsClient;
  zone: LandingZone;
  logger: Logger;
  now: () => Date;
  signal?: AbortSignal;
  onLanded: (file: LandedFile) => void;
  onRequest: () => void;
  /** Asked before each request after the first: false ends the window at this page, open (plan: mayContinue). */
  mayContinue?: () => boolean;
  timing?: { validateMs: number; landMs: number };
}

export type WindowOutcome =
  | { kind: 'complete'; pages: number; records: number }
  /** Ended at a page boundary because the budget left is the reserve: open, resumed by a later run. */
  | { kind: 'paused'; pages: number; records: number }
  | { kind: 'too-large'; pages: number; error: RetriesExhaustedError };

export async function executeWindow(deps: WindowDeps, t: WindowTask): Promise<WindowOutcome> {
  const id = t.resume?.id ?? ulid(deps.now().getTime());
  const start: Position = t.resume ? { cursor: t.resume.cursor, offset: t.resume.offset } : START;
  const fields = fieldsOf(t.pipeline.record);
  // Ends a read-ahead left behind when the window ends early: its waits stop.
  const readAhead = new AbortController();
  const signal = deps.signal ? AbortSignal.any([deps.signal, readAhead.signal]) : readAhead.signal;
  const pages = readWindow(deps.client, t.pipeline, t.projectId, t.window, start, { logger: deps.logger, signal, onRequest: deps.onRequest, maxPages: t.maxPages, pageFieldsProblem });
  let landed = 0;
  let records = 0;
  // A window restarted in this run (its stored cursor was rejected) is not paused again: paused
  // and restarted run after run, it would never end. It finishes, or stops on the budget (seen).
  let pausable = true;
  let next = settle(pages.next());
  try {
    for (;;) {
      const got = await next;
      if ('error' in got) {
        if (got.error instanceof RetriesExhaustedError) return { kind: 'too-large', pages: landed, error: got.error };
        // A read-ahead that failed after a stop request: the run stops at its last checkpoint.
        if (deps.signal?.aborted && !(got.error instanceof StoppedError)) throw new StoppedError('stopped on request at a checkpoint');
        throw got.error;
      }
      if (got.result.done) return { kind: 'complete', pages: landed, records };
      const page = got.result.value;
      // After a stop request nothing new is requested; a request already sent is paid for, so its
      // page lands before the run stops.
      if (page.restarted) pausable = false;
      const pause = pausable && !page.next.complete && !deps.signal?.aborted && deps.mayContinue?.() === false;
      const more = !page.next.complete && !deps.signal?.aborted && !pause;
      next = more ? settle(pages.next()) : Promise.resolve({ result: { done: true, value: undefined } as IteratorResult<ExtractedPage> });
      deps.onLanded(land(deps, t, id, page, fields));
      landed++;
      records += page.records.length;
      if (pause) return { kind: 'paused', pages: landed, records };
      if (!page.next.complete && !more) throw new StoppedError('stopped on request at a checkpoint');
    }
  } finally {
    readAhead.abort();
  }
}

function land(deps: WindowDeps, t: WindowTask, id: string, page: ExtractedPage, fields: readonly string[]): LandedFile {
  const started = performance.now();
  // A key the API does not know lands as one quarantined record, so it is skipped, not retried.
  // A record over the body cap (page-limit.ts) lands as one quarantined record: its size and head.
  const v = page.missing
    ? { invalid: [{ i: 0, error: page.missing.error, raw: { key: t.window.key, error: page.missing.error } }], valid: [], x: [] }
    : page.oversized ? { invalid: [{ i: 0, ...page.oversized }], valid: [], x: [] }
    : validateRecords(t.pipeline.record, fields, page.records);
  const validated = performance.now();
  if (deps.timing) deps.timing.validateMs += validated - started;
  if (v.invalid.length) {
    deps.logger.warn({ projectId: t.projectId, pipeline: t.pipeline.name, count: v.invalid.length, first: v.invalid[0]!.error }, 'records quarantined');
  }
  const file = deps.zone.land({
    v: LANDED_VERSION,
    project_id: t.projectId,
    pipeline: t.pipeline.name,
    organization: t.organization,
    seq: t.seq.next++,
    run_id: t.runId,
    fetched_at: deps.now().toISOString(),
    requests: page.requests,
    records: page.records.length + (page.missing || page.oversized ? 1 : 0),
    quarantined: v.invalid.length,
    window: { id, from: t.window.from.toISOString(), to: t.window.to.toISOString(), purpose: t.window.purpose, ...(t.window.key !== undefined ? { key: t.window.key } : {}) },
    request: page.request,
    next: page.next,
    window_limit_ms: t.windowLimitMs,
    invalid: v.invalid,
    x: v.x,
    ...(v.valid ? { valid: v.valid } : {}),
    // Each record stored once: with invalid records, the body keeps only its page-level fields.
    ...(v.invalid.length && !page.missing && !page.oversized ? { stripped: true as const } : {}),
  }, v.invalid.length && !page.missing && !page.oversized ? strippedBody(t.pipeline, page.body) : page.body);
  if (deps.timing) deps.timing.landMs += performance.now() - validated;
  return file;
}

type Settled<T> = { result: T } | { error: unknown };

/** A promise that never rejects, so a read-ahead nobody awaits (the window ended) is not an unhandled rejection. */
function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then((result) => ({ result }), (error: unknown) => ({ error }));
}
