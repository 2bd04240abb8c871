// A cheap probe of where an all-history stream's history starts (issue 34, item 2), so the first
// backfill has an estimate from its first run instead of "no estimate yet". The assistant's
// caller-stats endpoint counts, in one request, the assistant turns of any range: one request
// counts the turns older than the coverage, a binary search over weeks (about 6 more) finds the
// oldest week with a turn. Done once per stream (history older than the probe does not move); the
// planner reads nothing older than that week as weeks, and `status` estimates from the count.
import type { AnalyticsClient } from '../pipeline/page-fetch.js';
import { ApiUnreachableError, FatalError } from '../../core/errors.js';
import { BEGINNING } from '../../core/window.js';
import type { HistoryProbe } from '../../warehouse/history-probes.js';
import { PROBED_PIPELINE } from '../plan/history-start.js';
import type { OrgStream } from './run-org.js';

export const CALLER_STATS = '/v1/analytics/{projectId}/assistant/caller-stats';
const WEEK_MS = 7 * 86_400_000;
/** Weeks searched back from the probe; older history is left to the planner's own steps. */
const HORIZON_WEEKS = 64;

/**
 * Probes the history before `probeTo`. `historyStart` is the start of the oldest week (counted back
 * from probeTo) with a turn; BEGINNING when turns lie beyond the horizon; null when none at all.
 */
export async function probeHistory(client: AnalyticsClient, projectId: string, probeTo: number, now: number, signal?: AbortSignal,
  tally: { requests: number } = { requests: 0 }): Promise<HistoryProbe> {
  const count = async (to: number): Promise<number> => {
    const r = await client.get(CALLER_STATS, projectId, { dateFrom: BEGINNING.toISOString(), dateTo: new Date(to).toISOString() }, { signal });
    tally.requests += r.requests;
    const total = (r.json as { total?: unknown } | null)?.total;
    if (typeof total !== 'number' || !Number.isFinite(total) || total < 0) throw new Error('caller-stats answered without a total');
    return total;
  };
  const rows = await count(probeTo);
  const probe = (historyStart: number | null): HistoryProbe => ({ rows, probeTo, historyStart, probedAt: now, requests: tally.requests });
  if (rows === 0) return probe(null);
  const bound = (k: number) => probeTo - k * WEEK_MS;
  // Invariant: turns before bound(lo); none before bound(hi) (unless hi is the horizon, checked first).
  let lo = 0;
  let hi = HORIZON_WEEKS;
  if ((await count(bound(hi))) > 0) return probe(BEGINNING.getTime());
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((await count(bound(mid))) > 0) lo = mid;
    else hi = mid;
  }
  return probe(bound(hi));
}

export interface ProbeDeps {
  budget: { available(withinMs: number): number; refresh(): Promise<void> };
  save: (projectId: string, pipeline: string, p: HistoryProbe) => Promise<void>;
  now: () => number;
  warn: (message: string) => void;
  signal?: AbortSignal;
}

/** Requests a probe may take at most (1 + the search's log2 of the horizon + one): left for reads otherwise. */
const PROBE_REQUESTS = 9;

/** What the probe reads and sets of a run's stream (run-org.ts's OrgStream). */
type ProbedStream = Pick<OrgStream, 'projectId' | 'from' | 'pipeline' | 'coverage' | 'client' | 'historyStart' | 'probeRequests' | 'probeFailure'>;

const bottomOf = (s: ProbedStream) => (s.coverage.length ? s.coverage.reduce((a, b) => (b.from < a.from ? b : a)) : null);

/** An all-history assistant stream not probed yet whose stored history does not reach its beginning. */
function needsProbe(s: ProbedStream): boolean {
  if (s.pipeline.name !== PROBED_PIPELINE || s.from !== null || s.historyStart !== undefined) return false;
  const bottom = bottomOf(s);
  return !(bottom && (bottom.rows === 0 || bottom.from <= BEGINNING.getTime()));
}

/**
 * Probes each all-history assistant stream not probed yet and whose backfill is not known to be
 * done, when the budget has room now (a probe never waits for budget); a failed probe only warns
 * (the backfill finds the start by itself, as before). Sets `historyStart` on the streams probed,
 * and `probeRequests`: what the probe sent, counted in the stream's run like its reads.
 */
export async function probeNewHistories(
  streams: readonly ProbedStream[],
  deps: ProbeDeps,
): Promise<void> {
  for (const s of streams) {
    if (!needsProbe(s) || deps.signal?.aborted) continue;
    const bottom = bottomOf(s);
    await deps.budget.refresh();
    if (deps.budget.available(0) < PROBE_REQUESTS) continue;
    const tally = { requests: 0 };
    try {
      const p = await probeHistory(s.client, s.projectId, bottom?.from ?? deps.now(), deps.now(), deps.signal, tally);
      await deps.save(s.projectId, s.pipeline.name, p);
      s.historyStart = p.historyStart;
    } catch (err) {
      // An API that cannot be reached, or a first contact refused (a missing project, a rejected
      // key), is the stream's answer: its run fails with it and reads nothing (no second request,
      // or round of retries, to hear it again).
      if (err instanceof ApiUnreachableError || (!s.coverage.length && err instanceof FatalError && (err.status === 401 || err.status === 404))) s.probeFailure = err;
      else deps.warn(`${s.projectId}: probing where history starts failed (${err instanceof Error ? err.message : String(err)}); the backfill finds it by reading`);
    } finally {
      s.probeRequests = tally.requests;
    }
  }
}
