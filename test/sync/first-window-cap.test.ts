// A first sync's page cap (src/sync/plan/page-cap.ts) comes from what the run learned, not from the
// plan made before anything was known (in-process, injected clock, real sandbox and DuckDB). The
// first backfill window of a site of about 10,000 turns a day is a week of about 70 pages, planned
// at one request; the head (the last hour, at night) has shown the density by the time it is read.
// Capped at the plan's guess (60 pages), the run failed with "the API kept paging past 60 pages",
// though the API was fine. The second case is a site whose last hour (the head) is far quieter than
// its week: a real CLI against a scripted server on 127.0.0.1.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { MIN_PAGE_CAP } from '../../src/sync/plan/page-cap.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { scalar } from '../helpers/compare.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import { hostileServer, json, page, turns, type Hostile } from '../hostile/hostile.js';

const KEY = 'mint_first_window_cap_key';
const H = 3_600_000;
const START = Date.parse('2026-11-20T04:15:00Z');
const tmp = tempDir('docs-etl-first-cap-');
let sb: Sandbox | undefined;
let quiet: Hostile | undefined;
afterAll(async () => {
  await sb?.close();
  await quiet?.close();
  tmp.cleanup();
});

describe("a first sync's page cap", () => {
  it('lets the first week of a busy site be read whole in one run: no failure, every turn loaded', async () => {
    const clock = new FakeClock(START);
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 80_000, historyDays: 8, seed: 5, clock, rateLimit: null }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const cfg = defaultSyncConfig(warehouse,
      [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date(START - 9 * 24 * H) }],
      { rate: { limit: 1000, windowMs: H }, maxWaitMs: 0, pipelines: ['assistant_conversations'], budgetDir: join(tmp.dir, 'budget') });
    const result = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
    const run = result.runs[0]!;
    expect(run.error ?? null).toBeNull();
    expect(result.exitCode).toBe(0);
    expect(run.status).toBe('succeeded');
    // The case this is about: a window read whole, past the floor a guess of one request gets.
    expect(Math.max(...run.windows.map((w) => w.pages))).toBeGreaterThan(MIN_PAGE_CAP);
    expect(Number(await scalar(warehouse, 'SELECT count(*) FROM conversations'))).toBe(sb.truth('demo').length);
  });

  it('lets a first sync read a week 10 times as busy as its quiet last hour: exit 0, every page loaded', async () => {
    // The head (the last hour) holds 100 turns: about 17 pages for the week at that rate. The
    // newest week holds 120 pages; the older day, one. At the margin of a day's reads (4 x 17 + 10 =
    // 78 pages) the run failed; a first head's margin (16) lets it through.
    const WEEK_PAGES = 120;
    quiet = await hostileServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      const from = Date.parse(q.get('dateFrom') ?? '');
      const to = Date.parse(q.get('dateTo') ?? '');
      if (to - from <= 2 * H) return json(res, 200, page(turns(100, 'h_'), null));
      if (to < Date.now() - 3 * H) return json(res, 200, page(turns(5, 'o_'), null));
      const n = Number(q.get('cursor') ?? 0);
      json(res, 200, page(turns(10, `b${n}_`), n + 1 < WEEK_PAGES ? String(n + 1) : null));
    });
    const warehouse = join(tmp.dir, 'quiet.duckdb');
    const r = await runCli(['sync', '--warehouse', warehouse, '--from', new Date(Date.now() - 8 * 24 * H).toISOString(), '--rate-limit', '1000/1h'],
      cliEnv({ DOCS_API_BASE_URL: quiet.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', DOCS_PIPELINES: 'assistant_conversations', DOCS_ETL_BUDGET_DIR: join(tmp.dir, 'quiet-budget'), LOG_LEVEL: 'warn' }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/kept paging/);
    expect(quiet.seen.filter((x) => x.path.includes('cursor=')).length).toBe(WEEK_PAGES - 1);
    expect(Number(await scalar(warehouse, 'SELECT count(*) FROM conversations'))).toBe(100 + 10 * WEEK_PAGES + 5);
  });
});
