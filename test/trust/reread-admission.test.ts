// Issue 19, item 7, during a run: when a due re-read no longer fits the budget left (its estimate
// made again with what the run learned), a smaller backfill window of another pipeline that would
// fit is not read in its place: it is deferred too. Real sandbox client, real landing zone.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { createAnalyticsClient } from '../../src/sync/api/analytics-client.js';
import { createBudget } from '../../src/budget/budget.js';
import { RequestLog } from '../../src/budget/request-log.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { LandingZone } from '../../src/sync/land/landing-zone.js';
import { EMPTY_STATE } from '../../src/sync/load/sync-state.js';
import type { PlanEntry } from '../../src/sync/plan/org-plan.js';
import type { PipelineDefinition } from '../../src/sync/pipeline/definition.js';
import { runOrg, type OrgStream } from '../../src/sync/run/run-org.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_trust_admission_key1';
const H = 3_600_000;
const tmp = tempDir('docs-etl-admission-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

const pipeline = (name: string) => (PIPELINES as readonly PipelineDefinition[]).find((p) => p.name === name)!;

it('a deferred re-read holds back a smaller backfill window of another pipeline that fits', async () => {
  const now = Date.parse('2026-06-10T02:00:00Z');
  const clock = new FakeClock(now);
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 500, historyDays: 5, seed: 2, clock }));
  const budget = createBudget({ log: new RequestLog(join(tmp.dir, 'budget'), keyFingerprint(KEY)), rate: { limit: 100, windowMs: H }, clock, maxWaitMs: 0 });
  const client = createAnalyticsClient({ baseUrl: sb.url, apiKey: KEY, keySource: 'DOCS_API_KEY', budget, clock, logger: silentLogger });
  const stream = (name: string): OrgStream => ({
    projectId: 'demo', organization: keyFingerprint(KEY), from: null, timezone: 'UTC', pipeline: pipeline(name), client,
    state: EMPTY_STATE, coverage: [], density: null, sweptAt: null, nextSeq: 1, keys: null,
  });
  const streams = [stream('feedback'), stream('page_views')];
  const at = (h: number) => new Date(now - h * H);
  // What the plan selected: feedback's settle read (within its slack: optional), then a day of views.
  const settle: PlanEntry = { projectId: 'demo', pipeline: 'feedback', optional: true, window: { from: at(40), to: at(26), purpose: 'settle', estRequests: 5, canWait: true } };
  const backfill: PlanEntry = { projectId: 'demo', pipeline: 'page_views', optional: true, window: { from: new Date('2026-06-05T00:00:00Z'), to: new Date('2026-06-06T00:00:00Z'), purpose: 'backfill', estRequests: 1 } };
  const summaries = await runOrg({
    zone: new LandingZone(join(tmp.dir, 'landing')), budget, clock, logger: silentLogger,
    onLanded: () => {}, mergeFailed: () => false, startRun: async () => {},
    // Three requests left: the settle read (5) no longer fits; the views day (1) would.
    available: () => 3,
  }, streams, { selected: [settle, backfill], deferred: [], reserve: 0 });
  expect(summaries.map((s) => `${s.pipeline}: ${s.windows.length} read, ${s.deferred} deferred`)).toEqual(['feedback: 0 read, 1 deferred', 'page_views: 0 read, 1 deferred']);
  expect(sb.requestLog(KEY)).toHaveLength(0);
});
