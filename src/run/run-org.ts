// One run for one organization: plan every stream (project × pipeline) of the organization as one,
// then read the selected windows in order under the shared budget. A window that keeps timing out
// is bisected; an exhausted budget or a stop request ends the organization's queue; a stream that
// fails (unknown project, its pages cannot merge) does not stop the others.
import { ulid } from 'ulid';
import type { AnalyticsClient } from '../api/analytics-client.js';
import type { RequestBudget } from '../api/budget.js';
import type { Clock } from '../core/clock.js';
import { BudgetExhaustedError, StoppedError, messageOf } from '../core/errors.js';
import type { CoverageInterval } from '../core/intervals.js';
import type { Logger } from '../core/logger.js';
import { BEGINNING, formatWindow, isDated, spanMs } from '../core/window.js';
import type { LandedFile, LandingZone } from '../land/landing-zone.js';
import type { StreamState } from '../load/sync-state.js';
import { planKeys } from '../plan/keyed.js';
import { planOrg, type OrgPlan, type PlanEntry } from '../plan/org-plan.js';
import { MIN_WINDOW_MS, planStream, type PlanConfig } from '../plan/planner.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import { pageSize } from '../pipeline/definition.js';
import { executeWindow } from './execute-window.js';
import type { ProjectRunSummary } from './summary.js';

export interface OrgStream {
  projectId: string;
  organization: string;
  from: Date | null;
  /** The project's zone: day windows follow its midnights. */
  timezone: string;
  pipeline: PipelineDefinition;
  client: AnalyticsClient;
  state: StreamState;
  coverage: CoverageInterval[];
  density: number | null;
  /** When the last sweep completed (ms; pipelines with undated records), null: never. */
  sweptAt: number | null;
  /** Next landing sequence number of the stream. */
  nextSeq: number;
  /** Keyed pipelines: the keys its SQL selected at the start of the run (null: not keyed). */
  keys: string[] | null;
}

export interface OrgRunDeps {
  zone: LandingZone;
  budget: RequestBudget;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  onLanded: (file: LandedFile) => void;
  /** True when the stream's landed pages failed to merge: reading more would only pile them up. */
  mergeFailed: (pipeline: string, projectId: string) => boolean;
  startRun: (s: ProjectRunSummary) => Promise<void>;
  onPage?: (s: ProjectRunSummary) => void;
  /** Adds up where fetching spends its own time. */
  timing?: { validateMs: number; landMs: number };
  /**
   * Requests the organization can still send without waiting too long. Before an optional window
   * (recheck, backfill, sweep) starts, its estimate is made again with the density this run just
   * learned; a window that no longer fits is deferred to a later run instead of running into the
   * budget halfway (a first sync's estimates start at one request per window).
   */
  available?: () => number;
  /**
   * Target pages of a window: a backfill or catch-up window planned before the stream's density
   * was known (a first sync plans week-long steps) is cut to about this many pages once this run
   * has learned it, newest part first, so a busy site's backfill is not one window of thousands of
   * pages whose coverage counts only at its end.
   */
  windowPages?: number;
}

export type PlanSettings = Omit<PlanConfig, 'now' | 'from' | 'pageSize'>;

export function planOrganization(streams: readonly OrgStream[], settings: PlanSettings, now: Date, available: number): OrgPlan {
  return planOrg(streams.map((s) => ({
    projectId: s.projectId,
    pipeline: s.pipeline.name,
    priority: s.pipeline.priority,
    windows: s.keys ? planKeys(s.keys, now.getTime()) : planStream(
      { coverage: s.coverage, open: s.state.open, density: s.density, windowLimitMs: s.state.windowLimitMs, sweptAt: s.sweptAt },
      {
        ...settings, now: now.getTime(), from: s.from?.getTime() ?? null, pageSize: pageSize(s.pipeline),
        granularity: s.pipeline.time.granularity, timezone: s.timezone, historyDays: s.pipeline.defaultHistoryDays,
        rereads: s.pipeline.rereads ?? settings.rereads, sweepEveryMs: s.pipeline.time.undated?.sweepEveryMs,
      },
    ),
  })), available);
}

export async function runOrg(deps: OrgRunDeps, streams: readonly OrgStream[], plan: OrgPlan): Promise<ProjectRunSummary[]> {
  const key = (projectId: string, pipeline: string) => `${pipeline}\u0000${projectId}`;
  const byKey = new Map(streams.map((s) => [key(s.projectId, s.pipeline.name), s]));
  const summaries = new Map<string, ProjectRunSummary>();
  for (const s of streams) {
    const summary: ProjectRunSummary = {
      runId: ulid(deps.clock.now().getTime()), projectId: s.projectId, pipeline: s.pipeline.name, status: 'running', windows: [],
      deferred: deps.available ? 0 : plan.deferred.filter((d) => d.projectId === s.projectId && d.pipeline === s.pipeline.name).length,
      pages: 0, requests: 0, upserted: 0, quarantined: 0, error: null,
    };
    summaries.set(key(s.projectId, s.pipeline.name), summary);
    await deps.startRun(summary);
  }
  const seqs = new Map(streams.map((s) => [key(s.projectId, s.pipeline.name), { next: s.nextSeq }]));
  const limits = new Map(streams.map((s) => [key(s.projectId, s.pipeline.name), s.state.windowLimitMs]));
  // With a live budget, the windows the plan deferred come last: a first sync's plan over-estimates
  // nothing it does not know, so what its own estimates left unused goes to them if they fit.
  const queue: PlanEntry[] = deps.available ? [...plan.selected, ...plan.deferred] : [...plan.selected];
  const learned = new Map<string, Learned>();
  const deferredStreams = new Set<string>();
  /** Parts of windows cut to fit the budget left: they run even though their stream defers the rest. */
  const fitted = new WeakSet<PlanEntry>();
  let halt: 'budget_exhausted' | 'stopped' | null = null;
  let haltError: unknown = null;
  while (queue.length && !halt) {
    const e = queue.shift()!;
    const k = key(e.projectId, e.pipeline);
    const s = byKey.get(k)!;
    const summary = summaries.get(k)!;
    if (summary.status === 'failed') continue;
    if (deps.mergeFailed(e.pipeline, e.projectId)) {
      fail(summary, new Error('its landed pages could not be merged; reading stopped'));
      continue;
    }
    if (deps.signal?.aborted) {
      halt = 'stopped';
      break;
    }
    const parts = deps.windowPages ? resplit(e, rowsPerMs(s, learned.get(k)), deps.windowPages, pageSize(s.pipeline)) : null;
    if (parts) {
      queue.unshift(...parts);
      continue;
    }
    if (e.optional && !e.window.resume && !fitted.has(e) && (deferredStreams.has(k) || !fits(e, s, learned.get(k), deps.available))) {
      // Later optional windows of the stream wait too, so its gaps are still read newest first.
      const head = deferredStreams.has(k) ? null : cutToFit(e, s, learned.get(k), deps.available);
      deferredStreams.add(k);
      summary.deferred++;
      // A backfill window too large for what is left is read in part: its newest part that fits.
      if (head) {
        fitted.add(head);
        queue.unshift(head);
      }
      continue;
    }
    const log = deps.logger.child({ projectId: e.projectId, pipeline: e.pipeline, runId: summary.runId });
    const run = { ...e.window, pages: 0, complete: false };
    const startedAt = summary.requests;
    summary.windows.push(run);
    log.info({ purpose: e.window.purpose, window: formatWindow(e.window), key: e.window.key, pages: e.window.resume?.pages }, e.window.resume ? 'resuming open window' : 'window started');
    try {
      const out = await executeWindow({
        client: s.client, zone: deps.zone, logger: log, now: () => deps.clock.now(), signal: deps.signal, timing: deps.timing,
        onRequest: () => { summary.requests++; },
        onLanded: (f) => {
          run.pages++;
          summary.pages++;
          deps.onLanded(f);
          deps.onPage?.(summary);
        },
      }, {
        pipeline: s.pipeline, projectId: e.projectId, organization: s.organization, runId: summary.runId,
        window: e.window, resume: e.window.resume, seq: seqs.get(k)!, windowLimitMs: limits.get(k) ?? null,
      });
      if (out.kind === 'complete') {
        run.complete = true;
        if (isDated(e.window.purpose) && spanMs(e.window) <= LEARN_MAX_SPAN_MS && !e.window.resume) {
          const l = learned.get(k) ?? { rows: 0, span: 0, windows: 0, requests: 0 };
          learned.set(k, { rows: l.rows + out.records, span: l.span + spanMs(e.window), windows: l.windows + 1, requests: l.requests + requestsSince(summary, startedAt) });
        }
        if (e.window.purpose === 'backfill' && s.from === null && out.records === 0) collapseBackfill(queue, e);
        continue;
      }
      // Too large (504s, timeouts, persistent 5xx): read it as two halves, newer first.
      const half = Math.floor(spanMs(e.window) / 2);
      // A sweep or a keyed read has no dates to halve: it fails and is planned again next time.
      if (half < MIN_WINDOW_MS || !isDated(e.window.purpose)) throw out.error;
      limits.set(k, half);
      const mid = new Date(e.window.from.getTime() + half);
      log.warn({ window: formatWindow(e.window), reason: out.error.message }, 'window too large for the API: bisecting');
      queue.unshift(
        { ...e, window: { ...e.window, from: mid, resume: undefined, estRequests: Math.ceil(e.window.estRequests / 2) } },
        { ...e, window: { ...e.window, to: mid, resume: undefined, estRequests: Math.ceil(e.window.estRequests / 2) } },
      );
    } catch (err) {
      if (err instanceof BudgetExhaustedError) {
        halt = 'budget_exhausted';
        haltError = err;
      } else if (err instanceof StoppedError) {
        halt = 'stopped';
        haltError = err;
      } else {
        fail(summary, err);
        log.error({ err: messageOf(err) }, 'stream failed');
      }
    }
  }
  // What the queue did not reach stops with the organization (budget or stop request).
  const pending = new Set(queue.map((e) => key(e.projectId, e.pipeline)));
  for (const [k, summary] of summaries) {
    if (summary.status !== 'running') continue;
    const cut = summary.windows.some((w) => !w.complete) || pending.has(k);
    if (halt && cut) {
      summary.status = halt;
      summary.error = messageOf(haltError ?? 'stopped at a checkpoint on request');
      summary.cause = haltError;
    } else summary.status = 'succeeded';
  }
  return [...summaries.values()];
}

/** Windows longer than this (the open-ended bottom of history) say little about density. */
const LEARN_MAX_SPAN_MS = 31 * 86_400_000;

/** What the run's complete windows of a stream say about the next ones. */
interface Learned { rows: number; span: number; windows: number; requests: number }

const requestsSince = (summary: ProjectRunSummary, startedAt: number) => summary.requests - startedAt;

/** Whether an optional window's estimate, made again with what this run learned, fits the budget left. */
function fits(e: PlanEntry, s: OrgStream, learned: Learned | undefined, available?: () => number): boolean {
  if (!available) return true;
  let est = e.window.estRequests;
  if (s.pipeline.time.granularity === 'day') {
    // A day window costs about what the run's earlier day windows of the stream cost.
    if (learned?.windows) est = Math.max(est, Math.ceil(learned.requests / learned.windows));
  } else if (isDated(e.window.purpose) && spanMs(e.window) <= LEARN_MAX_SPAN_MS) {
    const density = rowsPerMs(s, learned);
    if (density !== null) est = Math.max(est, Math.ceil((density * spanMs(e.window)) / pageSize(s.pipeline)));
  }
  return est <= available();
}

/**
 * The newest part of a backfill window (event time) that fits in about 80% of the requests left
 * (estimates are averages), or null when that is less than two pages. The rest stays a gap, read
 * by later runs: a busy site's steady runs leave a few requests an hour, and they go to backfill.
 */
function cutToFit(e: PlanEntry, s: OrgStream, learned: Learned | undefined, available?: () => number): PlanEntry | null {
  const w = e.window;
  if (!available || w.purpose !== 'backfill' || s.pipeline.time.granularity === 'day' || spanMs(w) > LEARN_MAX_SPAN_MS) return null;
  const density = rowsPerMs(s, learned);
  const pages = Math.floor((available() - 1) * 0.8);
  if (density === null || density <= 0 || pages < 2) return null;
  const span = Math.floor((pages * pageSize(s.pipeline)) / density);
  if (span < MIN_WINDOW_MS || span >= spanMs(w)) return null;
  return { ...e, window: { ...w, from: new Date(w.to.getTime() - span), estRequests: pages + 1 } };
}

/**
 * Rows per ms of event time, to size and admit windows: the higher of what this run's complete
 * windows found and what earlier runs did (a short head is a noisy sample; erring high defers or
 * cuts a window rather than running it into the budget).
 */
function rowsPerMs(s: OrgStream, learned: Learned | undefined): number | null {
  const now = learned && learned.span > 0 ? learned.rows / learned.span : null;
  if (now === null) return s.density;
  return s.density === null ? now : Math.max(now, s.density);
}

/**
 * A backfill or catch-up window (event time, not resumed, not the open-ended bottom of history)
 * expected to hold well over `windowPages` pages, as windows of about that many pages, newest
 * first; null when it is fine as it is.
 */
function resplit(e: PlanEntry, density: number | null, windowPages: number, pageSize: number): PlanEntry[] | null {
  const w = e.window;
  const targetRows = windowPages * pageSize;
  if (w.resume || (w.purpose !== 'backfill' && w.purpose !== 'catchup') || density === null || density <= 0) return null;
  const span = spanMs(w);
  if (span > LEARN_MAX_SPAN_MS || density * span <= 1.5 * targetRows) return null;
  const n = Math.min(Math.ceil((density * span) / targetRows), Math.floor(span / MIN_WINDOW_MS));
  if (n < 2) return null;
  const out: PlanEntry[] = [];
  for (let i = n; i > 0; i--) {
    const from = w.from.getTime() + Math.floor(((i - 1) * span) / n);
    const to = i === n ? w.to.getTime() : w.from.getTime() + Math.floor((i * span) / n);
    out.push({ ...e, window: { ...w, from: new Date(from), to: new Date(to), estRequests: Math.max(1, Math.ceil((density * (to - from)) / pageSize)) } });
  }
  return out;
}

/**
 * All history (no --from): a backfill window of old data came back empty, so history ends about
 * there. The stream's older stepped windows are replaced by one window down to the beginning: one
 * request when nothing is older, and a bisection if something large is.
 */
function collapseBackfill(queue: PlanEntry[], done: PlanEntry): void {
  const older = (e: PlanEntry) => e.projectId === done.projectId && e.pipeline === done.pipeline && e.window.purpose === 'backfill' && !e.window.resume &&
    e.window.to.getTime() <= done.window.from.getTime();
  const removed = queue.filter(older);
  if (!removed.length) return;
  const at = queue.indexOf(removed[0]!);
  for (let i = queue.length - 1; i >= 0; i--) if (older(queue[i]!)) queue.splice(i, 1);
  queue.splice(at, 0, { ...done, window: { from: BEGINNING, to: done.window.from, purpose: 'backfill', estRequests: 1 } });
}

function fail(summary: ProjectRunSummary, err: unknown): void {
  summary.status = 'failed';
  summary.error = messageOf(err);
  summary.cause = err;
}
