// Issue 21, break 3: `merged_seq` (sync_state) names the last landed page whose merge committed. A
// run killed after a batch's merge committed and before its pages were released leaves them in
// the landing zone; the next run must release them unmerged again, by that number. The state such
// a kill leaves is made exactly here: a run with --keep-raw completes (each merged page is kept as
// a gzip of its landed file), then the last page's file is put back where it waited. The next run
// must not merge it again: its malformed records stay in quarantine once, the windows and pages
// are counted once, and the landing zone is empty after it. Recording merged_seq one page too low
// re-merges that page: its window is logged in sync_windows twice and its pages counted twice
// (the quarantine and the table absorb the re-merge; the run's log does not).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import type { LandedMeta } from '../../src/sync/pipeline/landed-page.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { expectedRows, scalar, warehouseRows } from '../helpers/compare.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_breaks_merged_seq_key';
const DAY = 86_400_000;
const tmp = tempDir('docs-etl-breaks-merged-seq-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('pages merged but not released before a kill are released by the next run, not merged again', async () => {
  const now = Date.parse('2026-11-01T12:00:00Z');
  const clock = new FakeClock(now);
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 2500, seed: 2103, malformedRate: 0.02, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date(now - 31 * DAY) }],
    { rate: { limit: 10_000, windowMs: 3_600_000 }, maxWaitMs: 0, pipelines: ['assistant_conversations'], keepRawMs: 30 * DAY });
  cfg.plan = { ...cfg.plan, maxWindowMs: 32 * DAY };
  const sync = async () => {
    const r = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
    expect(r.exitCode).toBe(0);
    return r.runs[0]!;
  };
  const counts = async () => ({
    quarantine: await scalar(warehouse, 'SELECT count(*) FROM quarantine'),
    windows: await scalar(warehouse, 'SELECT count(*) FROM sync_windows'),
    windowPages: await scalar(warehouse, 'SELECT sum(pages) FROM sync_windows'),
  });

  // A head, then the history as one backfill window of 3 pages; its last page holds malformed records.
  const first = await sync();
  expect(first.windows.map((w) => w.purpose)).toEqual(['head', 'backfill']);
  const malformed = sb.malformed('demo').length;
  expect(malformed).toBeGreaterThan(0);
  expect(await counts()).toEqual({ quarantine: BigInt(malformed), windows: 2n, windowPages: 4n });

  const kept = join(cfg.landingDir, 'kept', 'assistant_conversations', 'demo');
  const waiting = join(cfg.landingDir, 'pages', 'assistant_conversations', 'demo');
  const last = readdirSync(kept).filter((f) => /^\d+\.json\.gz$/.test(f)).sort().at(-1)!;
  const text = gunzipSync(readFileSync(join(kept, last))).toString('utf8');
  const meta = JSON.parse(text) as LandedMeta;
  expect(meta).toMatchObject({ seq: 4, window: { purpose: 'backfill' }, next: { complete: true } });
  expect(meta.quarantined).toBeGreaterThan(0);
  // The kill's leftover: the last merged page back in the landing zone, as it was landed.
  mkdirSync(waiting, { recursive: true });
  writeFileSync(join(waiting, last.replace(/\.gz$/, '')), text);

  clock.advance(60_000);
  const second = await sync();
  expect(second.windows.map((w) => w.purpose)).toEqual(['head']);
  expect(second.quarantined).toBe(0);
  expect(await counts()).toEqual({ quarantine: BigInt(malformed), windows: 3n, windowPages: 5n });
  expect(readdirSync(waiting)).toEqual([]);
  expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
}, 30_000);
