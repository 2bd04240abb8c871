// The catch-up mode of `schedule` (issue 34, item 2) on node-cron's own ticks, with time driven by
// vitest's fake timers (node-cron reads the time through Date and waits with setTimeout): three
// days pass in milliseconds, no sleeping. The runs are stand-ins whose backfill shrinks a step a
// run; the warehouse side ("left" as status says it) is tested on a real sync in test/backfill/backfill-advice-cli.test.ts.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { runScheduler, type ScheduledJob } from '../../src/cron/scheduler.js';
import { catchUpCron, hourlyCron } from '../../src/cron/catch-up.js';
import { silentLogger } from '../../src/core/logger.js';
import { backfillLeftOf } from '../../src/cli/commands/schedule-catch-up.js';
import { orgBackfill, type StreamCost } from '../../src/outputs/status/backfill-estimate.js';
import type { Status } from '../../src/outputs/status/collect-status.js';

const H = 3_600_000;
const START = Date.parse('2026-06-10T00:30:00Z');
const NIGHTLY = '0 2 * * *';

beforeEach(() => {
  vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A sync whose backfill needs `left` more runs; each run takes `runMs` of (fake) time. */
function stubSync(left: number, runMs = 60_000) {
  const starts: string[] = [];
  let running = 0;
  let overlaps = 0;
  const job: ScheduledJob = {
    name: 'sync',
    cron: NIGHTLY,
    run: async () => {
      starts.push(new Date().toISOString());
      if (++running > 1) overlaps++;
      await new Promise((r) => setTimeout(r, runMs));
      running--;
      left = Math.max(0, left - 1);
      return left ? 3 : 0; // a budget stop while backfill is left: a normal tick outcome
    },
  };
  return { job, starts, overlaps: () => overlaps, left: () => left };
}

async function schedule(job: ScheduledJob, days: number) {
  const ac = new AbortController();
  const lines: string[] = [];
  const done = runScheduler({ jobs: [job], timezone: 'UTC', logger: silentLogger, signal: ac.signal, onRun: (e) => lines.push(`next ${e.nextRun?.toISOString()}`) });
  await vi.advanceTimersByTimeAsync(days * 24 * H);
  ac.abort();
  await vi.advanceTimersByTimeAsync(H); // the run in flight, if any, ends
  await done;
  return lines;
}

it('with a nightly cron and a backfill left, runs hourly at the cron\'s minute until complete, then nightly again', async () => {
  const s = stubSync(3);
  const said: string[] = [];
  s.job.cronNow = catchUpCron({
    cron: NIGHTLY, hourly: hourlyCron(NIGHTLY)!, say: (l) => said.push(l),
    backfillLeft: async () => ({ left: s.left() > 0, runs: s.left() }),
  });
  const next = await schedule(s.job, 3);
  // 01:00, 02:00, 03:00 hourly (the third completes the backfill), then 02:00 each night.
  expect(s.starts).toEqual(['2026-06-10T01:00:00.000Z', '2026-06-10T02:00:00.000Z', '2026-06-10T03:00:00.000Z',
    '2026-06-11T02:00:00.000Z', '2026-06-12T02:00:00.000Z']);
  // Each run's line names the tick that really comes next.
  expect(next.slice(0, 3)).toEqual(['next 2026-06-10T02:00:00.000Z', 'next 2026-06-10T03:00:00.000Z', 'next 2026-06-11T02:00:00.000Z']);
  expect(said).toEqual([`backfill left: running hourly until complete (about 3 runs), then "${NIGHTLY}"`, `backfill complete: back to "${NIGHTLY}"`]);
  expect(s.overlaps()).toBe(0);
});

it('a catch-up run longer than an hour skips the tick it overlaps, never runs twice at once', async () => {
  const s = stubSync(2, 90 * 60_000);
  s.job.cronNow = catchUpCron({
    cron: NIGHTLY, hourly: hourlyCron(NIGHTLY)!, say: () => {},
    backfillLeft: async () => ({ left: s.left() > 0, runs: s.left() }),
  });
  await schedule(s.job, 1);
  // 01:00 runs until 02:30 (the 02:00 tick skipped), 03:00 completes the backfill, nightly after.
  expect(s.starts).toEqual(['2026-06-10T01:00:00.000Z', '2026-06-10T03:00:00.000Z']);
  expect(s.overlaps()).toBe(0);
});

it('without the mode the configured cron is the only one, backfill or not', async () => {
  const plain = stubSync(3);
  await schedule(plain.job, 2);
  expect(plain.starts).toEqual(['2026-06-10T02:00:00.000Z', '2026-06-11T02:00:00.000Z']);
});

it('with the mode and a backfill already complete, the configured cron applies and nothing is said', async () => {
  const done = stubSync(0);
  const said: string[] = [];
  done.job.cronNow = catchUpCron({ cron: NIGHTLY, hourly: hourlyCron(NIGHTLY)!, say: (l) => said.push(l), backfillLeft: async () => ({ left: false, runs: 0 }) });
  await schedule(done.job, 2);
  expect(done.starts).toEqual(['2026-06-10T02:00:00.000Z', '2026-06-11T02:00:00.000Z']);
  expect(said).toEqual([]);
});

it('the hourly cron keeps the configured minute (and second); a cron already hourly or faster has no catch-up', () => {
  expect(hourlyCron('0 2 * * *')).toBe('0 * * * *');
  expect(hourlyCron('17 3 * * 1')).toBe('17 * * * *');
  expect(hourlyCron('30 5 1 * * *')).toBe('30 5 * * * *');
  expect(hourlyCron('15 * * * *')).toBeNull();
  expect(hourlyCron('*/5 * * * *')).toBeNull();
  expect(hourlyCron('0 */6 * * *')).toBe('0 * * * *');
});

it('"left" is status\'s estimate: no warehouse yet is left, every organization at 0 runs is complete, else the slowest hourly estimate', () => {
  const rate = { limit: 100, windowMs: H };
  const stream = (organization: string, remainingRequests: number): StreamCost => ({
    organization, complete: remainingRequests === 0, remainingRequests, density: 1000 / 86_400_000, pageSize: 100, byDay: false,
    rereads: [], observedFresh: null, cadenceS: null,
  });
  const status = (...s: StreamCost[]) => ({ backfill: orgBackfill(s, rate, 86_400) }) as unknown as Status;
  expect(backfillLeftOf(null, rate)).toEqual({ left: true, runs: null });
  expect(backfillLeftOf(status(stream('a', 0), stream('b', 0)), rate)).toEqual({ left: false, runs: 0 });
  // Nightly: 960 and 480 requests at 90 a night; hourly at 100 less an hour's head (1): 10 and 5 runs.
  const left = backfillLeftOf(status(stream('a', 960), stream('b', 480), stream('c', 0)), rate);
  expect(left).toEqual({ left: true, runs: 10 });
});
