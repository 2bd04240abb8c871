// Issue 19, item 6: a 429 while this machine's request log shows room is not "used up": another
// client of the organization spent the budget, and the stop says so.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_trust_other_client_1';
const H = 3_600_000;
const tmp = tempDir('docs-etl-other-client-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('a sync whose own request log shows room meets a 429: "another client of this organization spent the budget"', async () => {
  const clock = new FakeClock(Date.parse('2026-06-10T02:00:00Z'));
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 3000, historyDays: 3, seed: 6, clock, rateLimit: { limit: 6, windowMs: H } }));
  const cfg = (name: string) => defaultSyncConfig(join(tmp.dir, name, 'w.duckdb'),
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb!.url, organization: keyFingerprint(KEY), backfillFrom: null }],
    { rate: { limit: 6, windowMs: H }, maxWaitMs: 0, pipelines: ['assistant_conversations'] });
  // Another client of the organization (a script, another machine) spends its 6 requests.
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${sb.url}/v1/analytics/demo/assistant?limit=1`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  }
  // This warehouse's log is empty: the API's 429 is someone else's spending.
  const second = await runSync({ clock, logger: silentLogger }, cfg('b'), PIPELINES);
  expect(second.exitCode).toBe(3);
  expect(second.runs[0]!.error).toMatch(/^the API answered 429 while this machine's request log shows 1 of 6 used: another client of this organization spent the budget; the block ends in /);
});
