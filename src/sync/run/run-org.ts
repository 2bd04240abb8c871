// One run for one organization: read the windows of its plan (src/sync/plan) in order under the shared
// budget, and report how each ended. What runs next, how large and whether it fits is the plan's
// decision (admission.ts before a window, after-window.ts after it); this loop executes windows and
// keeps the queue. An exhausted budget or a stop request ends the organization's queue; a stream
// that fails (unknown project, its pages cannot merge) does not stop the others.
import { ulid } from 'ulid';
import type { AnalyticsClient } from '../pipeline/page-fetch.js';
import type { RequestBudget } from '../../budget/budget.js';
import type { Clock } from '../../core/clock.js';
import { ApiUnreachableError, BudgetExhaustedError, FatalError, StoppedError, messageOf } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { formatWindow } from '../../core/window.js';
import type { LandingZone } from '../land/landing-zone.js';
import type { LandedFile } from '../pipeline/landed-page.js';
import type { StreamState } from '../load/sync-state.js';
import { admit, mayContinue, readCap, type Learned } from '../plan/admission.js';
import { afterWindow } from '../plan/after-window.js';
import { NO_DEFERRALS, defer } from '../plan/deferral.js';
import type { OrgPlan, PlanEntry } from '../plan/org-plan.js';
import type { PlanStream } from '../plan/plan-stream.js';
import { executeWindow } from './execute-window.js';
import { EndlessPagingError } from '../extract/endless-paging.js';
import { isParked, type Parked } from '../plan/park-backoff.js';
import type { ProjectRunSummary } from './summary.js';
import { streamKey } from '../pipeline/definition.js';

/** A stream as the run reads it: what its plan needed, plus its client and checkpoint. */
export interface OrgStream extends PlanStream {
  organization: string;
  client: AnalyticsClient;
  state: StreamState;
  /** Next landing sequence number of the stream. */
  nextSeq: number;
  /** Its window parked after the API paged without end (plan/park-backoff.ts), if any. */
  parked?: Parked | null;
  /** Requests this run's history probe sent before the plan (run/history-probe.ts): the run's too. */
  probeRequests?: number;
  /** The probe's refusal at first contact (401, 404): the stream fails with it, as if its first read got it. */
  probeFailure?: FatalError;
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
  /** Parks a window the API paged without end (persisted); returns when it is retried. */
  park?: (s: OrgStream, window: PlanEntry['window'], reason: string) => Promise<Parked>;
  /** A parked stream read again without paging without end: no longer parked. */
  unpark?: (s: OrgStream) => Promise<void>;
}

export async function runOrg(deps: OrgRunDeps, streams: readonly OrgStream[], plan: OrgPlan): Promise<ProjectRunSummary[]> {
  const byKey = new Map(streams.map((s) => [streamKey(s.projectId, s.pipeline.name), s]));
  const summaries = new Map<string, ProjectRunSummary>();
  for (const s of streams) {
    const summary: ProjectRunSummary = {
      runId: ulid(deps.clock.now().getTime()), projectId: s.projectId, pipeline: s.pipeline.name, status: 'running', windows: [],
      deferred: deps.available ? 0 : plan.deferred.filter((d) => d.projectId === s.projectId && d.pipeline === s.pipeline.name).length,
      pages: 0, requests: s.probeRequests ?? 0, upserted: 0, quarantined: 0, error: null,
    };
    summaries.set(streamKey(s.projectId, s.pipeline.name), summary);
    await deps.startRun(summary);
  }
  const seqs = new Map(streams.map((s) => [streamKey(s.projectId, s.pipeline.name), { next: s.nextSeq }]));
  const limits = new Map(streams.map((s) => [streamKey(s.projectId, s.pipeline.name), s.state.windowLimitMs]));
  // With a live budget, the windows the plan deferred come last: a first sync's plan over-estimates
  // nothing it does not know, so what its own estimates left unused goes to them if they fit. The
  // queue holds plain entries, each carrying the flags the plan gave it (cut, retried).
  let queue: PlanEntry[] = deps.available ? [...plan.selected, ...plan.deferred] : [...plan.selected];
  queue = holdParked(deps, byKey, summaries, queue);
  const parkedNow = new Set<string>();
  const learned = new Map<string, Learned | undefined>();
  // What this run deferred so far (the plan's rule, deferral.ts): it holds back what ranks after it.
  let deferrals = NO_DEFERRALS;
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
    const k = streamKey(e.projectId, e.pipeline);
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
    const admission = admit(e, s, { learned: learned.get(k), deferrals, budgetLeft: deps.available ?? null, windowPages: deps.windowPages });
    if (admission.kind !== 'run') {
      if (admission.kind === 'defer') {
        deferrals = admission.deferrals;
        summary.deferred++;
      }
      if (admission.entries.length) queue = [...admission.entries, ...queue];
      continue;
    }
    const log = deps.logger.child({ projectId: e.projectId, pipeline: e.pipeline, runId: summary.runId });
    const run = { ...e.window, pages: 0, complete: false };
    const startedAt = summary.requests;
    summary.windows.push(run);
    log.info({ purpose: e.window.purpose, window: formatWindow(e.window), key: e.window.key, pages: e.window.resume?.pages }, e.window.resume ? 'resuming open window' : 'window started');
    try {
      if (s.probeFailure) throw s.probeFailure;
      const out = await executeWindow({
        client: s.client, zone: deps.zone, logger: log, now: () => deps.clock.now(), signal: deps.signal, timing: deps.timing,
        onRequest: () => { summary.requests++; },
        mayContinue: () => mayContinue(e, deps.available ?? null),
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
        maxPages: readCap(e, s, learned.get(k)),
      });
      if (out.kind === 'paused') {
        // Like a deferral: the stream's older windows of the purpose wait behind it (newest first).
        deferrals = defer(deferrals, e);
        summary.deferred++;
        log.info({ window: formatWindow(e.window), pages: out.pages }, 'window paused: the budget left is what the next run needs for its heads; a later run resumes it');
        continue;
      }
      const error = out.kind === 'complete' ? null : out.error;
      const result = out.kind === 'complete' ? { kind: 'complete' as const, records: out.records, requests: summary.requests - startedAt } : { kind: 'too-large' as const };
      const next = afterWindow(e, result, s, learned.get(k), queue);
      if (next.kind === 'fail') throw error;
      if (next.kind === 'complete') {
        run.complete = true;
        learned.set(k, next.learned);
      } else if (next.kind === 'retry-day') {
        log.warn({ window: formatWindow(e.window), reason: error?.message }, 'day window failed: reading it whole once more');
      } else {
        limits.set(k, next.windowLimitMs);
        log.warn({ window: formatWindow(e.window), reason: error?.message }, 'window too large for the API: bisecting');
      }
      queue = next.queue;
    } catch (err) {
      if (err instanceof BudgetExhaustedError) {
        halt = 'budget_exhausted';
        haltError = err;
      } else if (err instanceof StoppedError) {
        halt = 'stopped';
        haltError = err;
      } else if (err instanceof EndlessPagingError && deps.park) {
        // Parked: the stream is not read again before its retry (a run or two later), not every run.
        const p = await deps.park(s, e.window, err.message);
        parkedNow.add(k);
        fail(summary, new FatalError(`${err.message}; the window is parked: no read of ${e.projectId}/${e.pipeline} before ${p.retryAt.toISOString()} (retry ${p.attempts})`));
        log.error({ err: summary.error }, 'window parked');
      } else {
        const scope = failureScope(err, answered.has(e.projectId));
        const named = scope === 'endpoint' ? endpointMissing(s, e.projectId) : err;
        fail(summary, named);
        // The key's rejection is said once, by the stream that got it; the others are only "not read".
        const notRead = scope === 'organization' ? orgNotRead(err)
          : new NotReadError(`not read: ${e.projectId}/${e.pipeline} answered ${(err as FatalError).status} (${messageOf(named)})`, (err as FatalError).status);
        if (scope === 'organization') orgFailure = notRead;
        if (scope === 'project') projectFailure.set(e.projectId, notRead);
        log.error({ err: messageOf(named) }, scope === 'organization' ? 'organization stopped' : scope === 'project' ? 'project stopped' : 'stream failed');
      }
    }
  }
  // A parked stream read again (its retry was due) that did not page without end: unparked.
  for (const [k, s] of byKey) {
    if (s.parked && !parkedNow.has(k) && !isParked(s.parked, deps.clock.now()) && summaries.get(k)!.status === 'running' && !halt) await deps.unpark?.(s);
  }
  // What the queue did not reach stops with the organization (budget or stop request).
  const pending = new Set(queue.map((e) => streamKey(e.projectId, e.pipeline)));
  for (const [k, summary] of summaries) {
    if (summary.status !== 'running') continue;
    const cut = summary.windows.some((w) => !w.complete) || pending.has(k);
    if (halt && cut) {
      summary.status = halt;
      summary.error = messageOf(haltError ?? 'stopped on request at a checkpoint');
      summary.cause = haltError;
    } else summary.status = 'succeeded';
  }
  return [...summaries.values()];
}

/**
 * The windows of streams whose parked window waits for its retry leave the queue: counted as
 * deferred, said once per stream (status and `status --check` name the parked window).
 */
function holdParked(deps: OrgRunDeps, byKey: Map<string, OrgStream>, summaries: Map<string, ProjectRunSummary>, queue: PlanEntry[]): PlanEntry[] {
  const now = deps.clock.now();
  const said = new Set<string>();
  return queue.filter((e) => {
    const k = streamKey(e.projectId, e.pipeline);
    const p = byKey.get(k)?.parked;
    if (!isParked(p, now)) return true;
    summaries.get(k)!.deferred++;
    if (!said.has(k)) {
      said.add(k);
      deps.logger.warn({ projectId: e.projectId, pipeline: e.pipeline, retryAt: p!.retryAt.toISOString(), reason: p!.reason }, 'stream parked (the API paged without end): not read before its retry');
    }
    return false;
  });
}

/** What the organization's other streams say when one stream's failure stopped it. */
function orgNotRead(err: unknown): NotReadError {
  return err instanceof ApiUnreachableError ? new NotReadError(NOT_READ_UNREACHABLE) : new NotReadError(NOT_READ_KEY_REJECTED, 401);
}

/**
 * How far a fatal answer reaches: an API that cannot be reached at all, and a 401 (the key), are
 * the organization's; a 404 is the project's id unless
 * another endpoint of the project answered (then the project lacks this export); anything else
 * stops the stream only.
 */
function failureScope(err: unknown, projectAnswered: boolean): 'organization' | 'project' | 'endpoint' | 'stream' {
  if (!(err instanceof FatalError)) return 'stream';
  if (err instanceof ApiUnreachableError || err.status === 401) return 'organization';
  if (err.status === 404) return projectAnswered ? 'endpoint' : 'project';
  return 'stream';
}

/** What a stream not read after its organization's key was rejected (401) says. */
export const NOT_READ_KEY_REJECTED = 'not read (the key was rejected)';

/** What a stream not read after its organization's API could not be reached says. */
export const NOT_READ_UNREACHABLE = 'not read (the API could not be reached)';

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
