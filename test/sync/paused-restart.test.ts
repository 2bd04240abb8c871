// A window that pauses at the reserve, and one whose stored cursor the API no longer accepts (the
// runner on a real sandbox client, real landing zone): an optional window stops at a page boundary
// once nothing is left above the reserve, open, counted as deferred; a resumed window whose cursor
// was rejected restarts from its start and is not paused again. Paused and restarted run after run,
// it would never end while every run reported success; instead it completes, or stops on the
// budget where the exit code (3) shows it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsClient } from '../../src/sync/api/analytics-client.js';
import { createBudget } from '../../src/budget/budget.js';
import { RequestLog } from '../../src/budget/request-log.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { LandingZone } from '../../src/sync/land/landing-zone.js';
import { EMPTY_STATE } from '../../src/sync/load/sync-state.js';
import type { PlanEntry } from '../../src/sync/plan/org-plan.js';
import { runOrg, type OrgStream } from '../../src/sync/run/run-org.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import { FEEDBACK } from '../plan/plan-fixtures.js';

const KEY = 'mint_paused_restart_key10';
const H = 3_600_000;
const NOW = Date.parse('2026-06-10T02:00:00Z');
const tmp = tempDir('docs-etl-paused-');
const clock = new FakeClock(NOW);
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 20_000, historyDays: 30, seed: 5, cursorTtlMs: 60_000, clock }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

/** Reads one optional backfill window (ten days, about twenty pages) with `left` requests above the reserve. */
async function readWithLeft(name: string, left: number, resume?: { cursor: string }) {
  const budget = createBudget({ log: new RequestLog(join(tmp.dir, name, 'budget'), keyFingerprint(KEY)), rate: { limit: 100, windowMs: H }, clock, maxWaitMs: 0 });
  const client = createAnalyticsClient({ baseUrl: sb.url, apiKey: KEY, keySource: 'DOCS_API_KEY', budget, clock, logger: silentLogger });
  const stream: OrgStream = {
    projectId: 'demo', organization: keyFingerprint(KEY), from: null, timezone: 'UTC', pipeline: FEEDBACK, client,
    state: EMPTY_STATE, coverage: [], density: null, sweptAt: null, nextSeq: 1, keys: null,
  };
  const window = {
    from: new Date(NOW - 10 * 24 * H), to: new Date(NOW - H), purpose: 'backfill' as const, estRequests: 2,
    ...(resume ? { resume: { id: `${name}-window`, cursor: resume.cursor, offset: null, pages: 4 } } : {}),
  };
  const entry: PlanEntry = { projectId: 'demo', pipeline: 'feedback', optional: true, window };
  const sent = () => sb.requestLog(KEY).length;
  const before = sent();
  const [s] = await runOrg({
    zone: new LandingZone(join(tmp.dir, name, 'landing')), budget, clock, logger: silentLogger,
    onLanded: () => {}, mergeFailed: () => false, startRun: async () => {},
    available: () => left - (sent() - before),
  }, [stream], { selected: [entry], deferred: [], reserve: 0 });
  return s!;
}

describe('pausing at the reserve', () => {
  it('an optional window that outruns its estimate stops once nothing is left above the reserve: open, deferred, a success', async () => {
    const s = await readWithLeft('pause', 3);
    expect(s.windows.map((w) => [w.purpose, w.pages, w.complete])).toEqual([['backfill', 3, false]]);
    expect(s.requests).toBe(3);
    expect(s.deferred).toBe(1);
    expect(s.status).toBe('succeeded');
  });

  it('a resumed window whose cursor was rejected restarts and is read to its end, not paused again', async () => {
    const whole = await readWithLeft('whole', 1000);
    const pages = whole.windows[0]!.pages;
    expect(whole.windows[0]!.complete).toBe(true);
    expect(pages).toBeGreaterThan(6);
    const s = await readWithLeft('restart', 3, { cursor: 'a-cursor-the-api-no-longer-knows' });
    expect(s.windows.map((w) => [w.purpose, w.complete])).toEqual([['backfill', true]]);
    // Every page of the window from its start (plus the rejected request), past the three left.
    expect(s.requests).toBe(pages + 1);
  });
});
