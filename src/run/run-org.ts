// One run for one organization: plan every stream (project × pipeline) of the organization as one,
// then read the selected windows in order under the shared budget. A window that keeps timing out
// is bisected; an exhausted budget or a stop request ends the organization's queue; a stream that
// fails (unknown project, its pages cannot merge) does not stop the others.
import { ulid } from 'ulid';
import type { AnalyticsClient } from '../api/analytics-client.js';
import type { RequestBudget } from '../api/budget.js';
import type { Clock } from '../core/clock.js';
import { BudgetExhaustedError, FatalError, StoppedError, messageOf } from '../core/errors.js';
import type { CoverageInterval } from '../core/intervals.js';
import type { Logger } from '../core/logger.js';
import { formatWindow, isDated, spanMs } from '../core/window.js';
import type { LandedFile, LandingZone } from '../land/landing-zone.js';
import type { StreamState } from '../load/sync-state.js';
import { planKeys } from '../plan/keyed.js';
import { isAfterRereads, isReread, planOrg, type OrgPlan, type PlanEntry } from '../plan/org-plan.js';
import { MIN_WINDOW_MS, planStream, type PlanConfig } from '../plan/planner.js';
import type { PipelineDefinition } from '../pipeline/definition.js';
import { pageSize } from '../pipeline/definition.js';
import { pageCap } from '../extract/read-window.js';
import { executeWindow } from './execute-window.js';
import { LEARN_MAX_SPAN_MS, collapseBackfill, cutToFit, fits, requestsSince, resplit, rowsPerMs, type Learned } from './window-admission.js';
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
  /** Stream and purpose whose optional windows wait for a later run. */
  const waiting = new Set<string>();
  /** Parts of windows cut to fit the budget left: they run even though their stream defers the rest. */
  const fitted = new WeakSet<PlanEntry>();
  /** Day windows already read once more after a failure. */
  const retried = new WeakSet<PlanEntry>();
  /**
   * A due re-read (of any stream) was deferred for lack of budget: no backfill, sweep or keyed read
   * is admitted after it in this run, however small (issue 19: re-reads before backfill).
   */
  let rereadDeferred = false;
  /**
   * Fail fast, say it once: a 401 (the key) stops every stream of the organization; a 404 before
   * anything of the project answered stops every stream of the project (its id is wrong). Their
   * other streams fail with the same message without a request.
   */
  let orgFailure: NotReadError | null = null;
  const projectFailure = new Map<string, NotReadError>();
  /** Projects with an endpoint that answered (this run, or earlier: coverage): the project exists. */
  const answered = new Set(streams.filter((s) => s.coverage.length).map((s) => s.projectId));
  let halt: 'budget_exhausted' | 'stopped' | null = null;
  let haltError: unknown = null;
  while (queue.length && !halt) {
    const e = queue.shift()!;
    const k = key(e.projectId, e.pipeline);
    const s = byKey.get(k)!;
    const summary = summaries.get(k)!;
    if (summary.status === 'failed') continue;
    const stopped = orgFailure ?? projectFailure.get(e.projectId);
    if (stopped) {
      fail(summary, stopped);
      continue;
    }
    if (deps.mergeFailed(e.pipeline, e.projectId)) {
      fail(summary, new Error('its landed pages could not be merged; reading stopped'));
      continue;
    }
    if (deps.signal?.aborted) {
      halt = 'stopped';
      break;
    }
    const parts = deps.windowPages && !fitted.has(e) ? resplit(e, rowsPerMs(s, learned.get(k)), deps.windowPages, pageSize(s.pipeline)) : null;
    if (parts) {
      queue.unshift(...parts);
      continue;
    }
    const waitKey = `${k}\u0000${e.window.purpose}`;
    const held = rereadDeferred && isAfterRereads(e.window.purpose);
    if (e.optional && !e.window.resume && !fitted.has(e) && (held || waiting.has(waitKey) || !fits(e, s, learned.get(k), deps.available))) {
      // Later windows of the stream with the same purpose wait too, so its gaps are still read
      // newest first; a re-read that waits holds back every backfill, sweep and keyed read.
      const head = held || waiting.has(waitKey) ? null : cutToFit(e, s, learned.get(k), deps.available);
      waiting.add(waitKey);
      if (isReread(e.window.purpose)) rereadDeferred = true;
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
          answered.add(e.projectId);
          run.pages++;
          summary.pages++;
          deps.onLanded(f);
          deps.onPage?.(summary);
        },
      }, {
        pipeline: s.pipeline, projectId: e.projectId, organization: s.organization, runId: summary.runId,
        window: e.window, resume: e.window.resume, seq: seqs.get(k)!, windowLimitMs: limits.get(k) ?? null,
        maxPages: pageCap(e.window.estRequests),
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
      // A day is one aggregate over its range: never cut. It is read whole once more in this run;
      // if that fails too, the stream fails and the day is planned again next run.
      if (s.pipeline.time.granularity === 'day') {
        if (retried.has(e)) throw out.error;
        const again: PlanEntry = { ...e, window: { ...e.window, resume: undefined } };
        retried.add(again);
        log.warn({ window: formatWindow(e.window), reason: out.error.message }, 'day window failed: reading it whole once more');
        queue.unshift(again);
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
        const scope = failureScope(err, answered.has(e.projectId));
        const named = scope === 'endpoint' ? endpointMissing(s, e.projectId) : err;
        fail(summary, named);
        const notRead = new NotReadError(`not read: ${e.projectId}/${e.pipeline} answered ${(err as FatalError).status} (${messageOf(named)})`, (err as FatalError).status);
        if (scope === 'organization') orgFailure = notRead;
        if (scope === 'project') projectFailure.set(e.projectId, notRead);
        log.error({ err: messageOf(named) }, scope === 'organization' ? 'organization stopped' : scope === 'project' ? 'project stopped' : 'stream failed');
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

/**
 * How far a fatal answer reaches: a 401 is the organization's key; a 404 is the project's id unless
 * another endpoint of the project answered (then the project lacks this export); anything else
 * stops the stream only.
 */
function failureScope(err: unknown, projectAnswered: boolean): 'organization' | 'project' | 'endpoint' | 'stream' {
  if (!(err instanceof FatalError)) return 'stream';
  if (err.status === 401) return 'organization';
  if (err.status === 404) return projectAnswered ? 'endpoint' : 'project';
  return 'stream';
}

/** A stream not read because another stream's answer stopped its organization or project (said once, there). */
export class NotReadError extends FatalError {
  override name = 'NotReadError';
}

function endpointMissing(s: OrgStream, projectId: string): FatalError {
  const path = s.pipeline.endpoint.replace('{projectId}', encodeURIComponent(projectId));
  return new FatalError(`GET ${path} answered 404: the project may not have this export; leave it out with --pipelines`, 404);
}

function fail(summary: ProjectRunSummary, err: unknown): void {
  summary.status = 'failed';
  summary.error = messageOf(err);
  summary.cause = err;
}
