// One run of one pipeline for one project: resume an open window or open the next, read it page
// by page, write each page with its checkpoint, close the run with its outcome.
import type { DuckDBConnection } from '@duckdb/node-api';
import { ulid } from 'ulid';
import type { AnalyticsClient } from '../api/analytics-client.js';
import type { Clock } from '../core/clock.js';
import { BudgetExhaustedError, StoppedError, messageOf } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { readWindow } from '../extract/read-window.js';
import { nextWindow } from '../extract/window.js';
import { writePage } from '../load/page-writer.js';
import { finishRun, startRun, type RunStatus } from '../load/sync-runs.js';
import { openWindow, readSyncState, type Window } from '../load/sync-state.js';
import { normalizePage } from '../normalize/turns.js';
import type { PipelineDefinition } from './pipeline.js';

export interface ProjectRunDeps {
  conn: DuckDBConnection;
  client: AnalyticsClient;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  onPage?: (p: ProjectRunSummary) => void;
}

export interface ProjectRunOptions {
  pipeline: PipelineDefinition;
  projectId: string;
  organization: string;
  lookbackMs: number;
  backfillFrom: Date | null;
}

export interface ProjectRunSummary {
  runId: string;
  projectId: string;
  status: RunStatus;
  windows: Window[];
  pages: number;
  requests: number;
  upserted: number;
  quarantined: number;
  error: string | null;
  /** The error behind a non-succeeded status, for the caller to classify. */
  cause?: unknown;
}

export async function syncProject(deps: ProjectRunDeps, opts: ProjectRunOptions): Promise<ProjectRunSummary> {
  const { conn, clock, logger } = deps;
  const { pipeline, projectId } = opts;
  const runStart = clock.now();
  const summary: ProjectRunSummary = {
    runId: ulid(runStart.getTime()), projectId, status: 'running', windows: [], pages: 0, requests: 0, upserted: 0, quarantined: 0, error: null,
  };
  const log = logger.child({ projectId, runId: summary.runId, pipeline: pipeline.name });
  await startRun(conn, { runId: summary.runId, projectId, pipeline: pipeline.name, now: runStart });
  try {
    // A resumed window ends before this run started: finish it, then read up to now.
    for (let pass = 0; pass < 2; pass++) {
      const state = await readSyncState(conn, projectId, pipeline.name);
      let window: Window;
      let cursor: string | null = null;
      if (state.open) {
        window = { from: state.open.from, to: state.open.to };
        cursor = state.open.cursor;
        log.info({ window: fmt(window), pages: state.open.pages }, 'resuming open window');
      } else {
        if (pass > 0 && state.highWater && state.highWater >= runStart) break;
        window = nextWindow(state, runStart, opts.lookbackMs, opts.backfillFrom);
        await openWindow(conn, { projectId, pipeline: pipeline.name, organization: opts.organization, window, runId: summary.runId, now: clock.now() });
        log.info({ window: fmt(window) }, 'window opened');
      }
      summary.windows.push(window);
      await readAndLoad(deps, opts, summary, window, cursor);
      if (window.to >= runStart) break;
    }
    summary.status = 'succeeded';
  } catch (err) {
    summary.status = err instanceof BudgetExhaustedError ? 'budget_exhausted' : err instanceof StoppedError ? 'stopped' : 'failed';
    summary.error = messageOf(err);
    summary.cause = err;
  }
  const last = summary.windows.at(-1) ?? null;
  await finishRun(conn, { runId: summary.runId, status: summary.status, error: summary.error, window: last, now: clock.now() });
  log.info({ status: summary.status, pages: summary.pages, requests: summary.requests, upserted: summary.upserted, quarantined: summary.quarantined, error: summary.error ?? undefined }, 'run finished');
  return summary;
}

async function readAndLoad(deps: ProjectRunDeps, opts: ProjectRunOptions, summary: ProjectRunSummary, window: Window, cursor: string | null) {
  const { pipeline, projectId } = opts;
  const source = { endpoint: pipeline.endpoint, projectId, pageSize: pipeline.pageSize };
  // Ends a read-ahead left behind when the window ends early (a failed write): its waits stop.
  const readAhead = new AbortController();
  const signal = deps.signal ? AbortSignal.any([deps.signal, readAhead.signal]) : readAhead.signal;
  const pages = readWindow(deps.client, source, window, cursor, { logger: deps.logger, signal });
  let next = settle(pages.next());
  // A first read of history is mostly turns not stored yet: insert, until a page holds a stored one.
  let insertFirst = true;
  try {
    for (;;) {
      const got = await next;
      if ('error' in got) {
        // A read-ahead that failed after a stop request: the run stops at its last checkpoint.
        if (deps.signal?.aborted && !(got.error instanceof StoppedError)) throw new StoppedError('stopped at a checkpoint on request');
        throw got.error;
      }
      if (got.result.done) return;
      const page = got.result.value;
      // The next page is requested while this one is written: the API's latency and the parsing
      // overlap DuckDB's work. After a stop request nothing new is requested; a request already
      // sent is paid for, so its page is written before the run stops.
      const more = page.hasMore && !deps.signal?.aborted;
      next = more ? settle(pages.next()) : Promise.resolve({ result: { done: true, value: undefined } });
      const n = normalizePage(page.records);
      // All records valid: DuckDB parses the body as received; otherwise only the valid ones.
      const json = n.valid.length === 0 ? null : {
        text: n.quarantined.length === 0 ? page.body : JSON.stringify({ conversations: n.valid }),
        extraAt: n.extraAt, distinct: n.distinct,
      };
      const written = await writePage(deps.conn, {
        projectId, pipeline: pipeline.name, runId: summary.runId, now: deps.clock.now(), json, insertFirst,
        quarantined: n.quarantined, checkpoint: { cursor: page.nextCursor, complete: !page.hasMore }, requests: page.requests,
      });
      if (written.mode === 'upsert') insertFirst = false;
      summary.pages++;
      summary.requests += page.requests;
      summary.upserted += written.upserted;
      summary.quarantined += n.quarantined.length;
      if (n.quarantined.length) deps.logger.warn({ projectId, count: n.quarantined.length, first: n.quarantined[0]!.error }, 'records quarantined');
      deps.onPage?.(summary);
      // The page is committed; a stop request takes effect here, at the checkpoint.
      if (page.hasMore && !more) throw new StoppedError('stopped at a checkpoint on request');
    }
  } finally {
    readAhead.abort();
  }
}

type Settled<T> = { result: T } | { error: unknown };

/** A promise that never rejects, so a read-ahead nobody awaits (the window ended) is not an unhandled rejection. */
function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then((result) => ({ result }), (error: unknown) => ({ error }));
}

const fmt = (w: Window) => ({ from: w.from?.toISOString() ?? null, to: w.to.toISOString() });
