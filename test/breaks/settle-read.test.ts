// Issue 21, break 1: the settle read of an events window is what catches a turn that arrives after
// the recheck read. Sandbox in steady-traffic mode over real HTTP (30% of the turns arrive up
// to 20 h late), real DuckDB, one fake clock for the sandbox and the sync. Three runs:
//   T0        first read of everything (the last day is not settled yet);
//   T0 + 4 h  the recheck of the intervals that were younger than 3 h at T0;
//   T0 + 30 h the settle read of the intervals read at T0 (past their 24 h age and its 6 h slack).
// The late turns (timestamp before T0, visible only after the recheck run) are absent after the
// second run, present after the third, and every window of the third run that holds one of them is
// a settle read. With the settle read of event windows removed (the planner plans rechecks only),
// the third run does not read them and the final comparison with the truth fails.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, trafficOptions, type Sandbox } from '../../src/tools/sandbox/index.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_breaks_settle_key_01';
const MIN = 60_000;
const H = 3_600_000;
const tmp = tempDir('docs-etl-breaks-settle-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

it('a turn that arrives after the recheck read is in the warehouse after the settle read, and only the settle read read it', async () => {
  const T0 = Date.parse('2026-06-10T09:00:00Z');
  const clock = new FakeClock(T0);
  // 70% visible within 5 min, 30% between 5 min and 20 h after their timestamp; no later changes
  // (this test is about arrivals only).
  const traffic = trafficOptions(1500, {
    arrival: [{ share: 0.7, withinMs: 5 * MIN }, { share: 0.3, withinMs: 20 * H }],
    changes: { share: 0, minMs: 0, maxMs: 0 },
  });
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], traffic, historyDays: 2, seed: 2101, clock }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: null }],
    { rate: { limit: 10_000, windowMs: H }, maxWaitMs: 0, pipelines: ['assistant_conversations'] });
  const sync = async () => {
    const r = await runSync({ clock, logger: silentLogger }, cfg, PIPELINES);
    expect(r.exitCode).toBe(0);
    return r.runs[0]!.windows;
  };

  await sync();
  clock.ms = T0 + 4 * H;
  const T1 = clock.ms;
  const second = await sync();
  expect(second.map((w) => w.purpose)).toContain('recheck');
  expect(second.map((w) => w.purpose)).not.toContain('settle');

  clock.ms = T0 + 30 * H;
  const truth = sb.truth('demo');
  const keys = sb.truthKeys('demo', { toMs: T0 });
  const lateIds = new Set<string>();
  for (let i = 0; i < keys.count; i++) if (keys.visibleAt[i]! > T1) lateIds.add(`${keys.id[i]}|${keys.timestampMs[i]}`);
  const lateKey = (r: { id: string; at: string }) => `${r.id}|${Date.parse(r.at)}`;
  const late = expectedRows(truth).filter((r) => lateIds.has(lateKey(r)));
  // The situation this test is about really happens in the data: many turns of the day before T0
  // become visible between the recheck run and the settle run.
  expect(late.length).toBeGreaterThan(50);
  const beforeSettle = await warehouseRows(warehouse, 'demo');
  expect(beforeSettle.filter((r) => lateIds.has(lateKey(r)))).toEqual([]);

  const third = await sync();
  const after = await warehouseRows(warehouse, 'demo');
  expect(after.filter((r) => lateIds.has(lateKey(r)))).toEqual(late);
  expect(after).toEqual(expectedRows(truth));
  // Each late turn was read by a settle window of the third run, and by no other kind of window.
  for (const r of late) {
    const at = Date.parse(r.at);
    const holding = third.filter((w) => w.from.getTime() <= at && at < w.to.getTime()).map((w) => w.purpose);
    expect(holding, r.at).toEqual(['settle']);
  }
}, 60_000);
