// How a run spends a small budget on a busy stream (in-process, injected clock, real sandbox and
// DuckDB): the head first; a backfill planned before the density was known is cut to about
// `windowPages` pages once the head taught it, and its newest part that fits what is left is read;
// the rest is deferred, never a budget stop; later runs continue newest first and end equal to the
// truth, and no hour ever holds more requests than the budget.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { normalizeOffset } from '../../src/contracts/analytics.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { DEFAULT_TOPIC_SETTINGS } from '../../src/outputs/topics/topic-settings.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { maxInWindow } from '../helpers/window-stats.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { expectedRows, scalar, warehouseRows } from '../helpers/compare.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_budget_use_key_0007';
const H = 3_600_000;
const START = Date.parse('2026-11-20T12:00:00Z');
const tmp = tempDir('docs-etl-budget-use-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

describe('a small budget on a busy stream', () => {
  it('reads the head, then the newest backfill that fits, defers the rest, and catches up run by run', async () => {
    const clock = new FakeClock(START);
    // 60,000 turns over two days: 60 pages, against 30 requests an hour.
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 60_000, historyDays: 2, seed: 11, clock }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const cfg = defaultSyncConfig(warehouse,
      [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date(START - 3 * 24 * H) }],
      // The read surface as a copy: publishing after each run is not what this file is about (the
      // catalog exports Parquet after each of its runs). No gap topics' grouping (topicMaxQuestions 0):
      // not what this file is about, and a quarter of its syncs' CPU (measured).
      { rate: { limit: 30, windowMs: H }, maxWaitMs: 0, pipelines: ['assistant_conversations'], budgetDir: join(tmp.dir, 'budget'), readSurface: 'copy',
        topics: { ...DEFAULT_TOPIC_SETTINGS, maxQuestions: 0 } });
    const truth = sb.truth('demo');
    const at = truth.map((t) => Date.parse(normalizeOffset(t.timestamp)));

    const first = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
    const run = first.runs[0]!;
    expect(first.exitCode).toBe(0); // deferred, not a budget stop
    expect(run.status).toBe('succeeded');
    expect(run.deferred).toBeGreaterThan(0);
    expect(run.windows[0]!.purpose).toBe('head');
    const backfill = run.windows.filter((w) => w.purpose === 'backfill');
    expect(backfill.length).toBeGreaterThan(0);
    // The backfill read is the newest part of history, contiguous with the head, sized from the
    // density the head showed to what the head left (30 − 1 kept in reserve − the head's pages):
    // not the planned window down to --from (about 60 pages, far over the budget).
    expect(backfill[0]!.to.getTime()).toBe(run.windows[0]!.from.getTime());
    expect(backfill[0]!.from.getTime()).toBeGreaterThan(START - 2 * 24 * H);
    expect(backfill[0]!.pages).toBeGreaterThan(10);
    expect(run.requests).toBeLessThanOrEqual(30);
    // What the run read is in the warehouse, exactly: every turn from its oldest window on.
    const oldest = Math.min(...run.windows.map((w) => w.from.getTime()));
    const loaded = Number(await scalar(warehouse, 'SELECT count(*) FROM conversations'));
    expect(loaded).toBe(at.filter((x) => x >= oldest).length);
    expect(loaded).toBeLessThan(truth.length);

    // Hourly runs: each continues the backfill newest first, until all history is in.
    let runs = 1;
    while (Number(await scalar(warehouse, 'SELECT count(*) FROM conversations')) < truth.length && runs < 8) {
      clock.advance(H);
      const r = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
      expect(r.exitCode).toBe(0);
      runs++;
    }
    expect(runs).toBeGreaterThan(2);
    expect(runs).toBeLessThan(8);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(truth));
    const log = sb.requestLog(KEY).filter((r) => r.path.startsWith('/v1/analytics/'));
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    expect(maxInWindow(log.map((r) => r.at), H)).toBeLessThanOrEqual(30);
  }, 120_000);
});
