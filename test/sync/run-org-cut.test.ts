// The runner keeps the plan's flags on its queue entries (issue 21): a backfill window too large for
// the requests left is read in part, its newest part that fits, while the rest waits; the part is
// read although its stream's backfill now waits (it carries its `cut` flag). Real sandbox client,
// real landing zone.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
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

const KEY = 'mint_run_org_cut_key01';
const H = 3_600_000;
const tmp = tempDir('docs-etl-cut-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('a backfill window too large for the requests left is read in part, its newest eight hours, and the rest deferred', async () => {
  const now = Date.parse('2026-06-10T02:00:00Z');
  const clock = new FakeClock(now);
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 200, historyDays: 3, seed: 3, clock }));
  const budget = createBudget({ log: new RequestLog(join(tmp.dir, 'budget'), keyFingerprint(KEY)), rate: { limit: 100, windowMs: H }, clock, maxWaitMs: 0 });
  const client = createAnalyticsClient({ baseUrl: sb.url, apiKey: KEY, keySource: 'DOCS_API_KEY', budget, clock, logger: silentLogger });
  // What earlier runs found: one page (100 feedback rows) an hour.
  const stream: OrgStream = {
    projectId: 'demo', organization: keyFingerprint(KEY), from: null, timezone: 'UTC', pipeline: FEEDBACK, client,
    state: EMPTY_STATE, coverage: [], density: 100 / H, sweptAt: null, nextSeq: 1, keys: null,
  };
  const to = now - 24 * H;
  const backfill: PlanEntry = { projectId: 'demo', pipeline: 'feedback', optional: true, window: { from: new Date(to - 24 * H), to: new Date(to), purpose: 'backfill', estRequests: 24 } };
  const summaries = await runOrg({
    zone: new LandingZone(join(tmp.dir, 'landing')), budget, clock, logger: silentLogger,
    onLanded: () => {}, mergeFailed: () => false, startRun: async () => {},
    // Eleven requests left: the day (24 pages) does not fit; 80% of ten is eight pages, eight hours.
    available: () => 11,
  }, [stream], { selected: [backfill], deferred: [], reserve: 0 });
  const [s] = summaries;
  expect(s!.windows.map((w) => [(to - w.from.getTime()) / H, (to - w.to.getTime()) / H, w.purpose, w.complete])).toEqual([[8, 0, 'backfill', true]]);
  expect(s!.deferred).toBe(1);
  expect(s!.status).toBe('succeeded');
  expect(sb.requestLog(KEY).length).toBe(s!.requests);
});
