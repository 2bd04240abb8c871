// A long run publishes the read snapshot at most every publishInterval, measured on the run's
// clock (deps.clock), not the machine's: with a fake clock that rate-limit waits move forward,
// the interval passes in the run's time while almost no real time passes, and a run that takes
// less of the run's time than the interval publishes only at its end.
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_publish_clock_key_0001';
const START = Date.parse('2026-11-01T12:00:00Z');
/** The sandbox's rate window: each 429 costs the run this much of its clock and no real time. */
const WINDOW_MS = 10 * 60_000;
const MID_RUN = 'read snapshot published (run in progress)';

let sandbox: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sandbox?.close();
  tmp?.cleanup();
  sandbox = undefined;
  tmp = undefined;
});

/**
 * One backfill of 5,000 turns, the sandbox answering 2 requests per 10 minutes (the client believes it has
 * plenty, so it meets 429s and waits for the window on the fake clock both share).
 */
async function longRun(publishIntervalMs: number) {
  tmp = tempDir();
  const clock = new FakeClock(START);
  sandbox = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 5000, seed: 21, clock, rateLimit: { limit: 2, windowMs: WINDOW_MS } }));
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sandbox.url, organization: keyFingerprint(KEY), backfillFrom: null }],
    { rate: { limit: 10_000, windowMs: 3_600_000 }, maxWaitMs: 3 * WINDOW_MS, pipelines: ['assistant_conversations'], publishIntervalMs, mergeBatchRows: 1000 });
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
  const realStart = performance.now();
  const r = await runSync({ clock, logger, retry: { attempts: 12, baseMs: 1, maxMs: 20 } }, cfg, PIPELINES);
  return { r, clock, warehouse, midRun: lines.filter((l) => l.includes(MID_RUN)).length, realMs: performance.now() - realStart };
}

describe('publishInterval on the run clock', () => {
  it('a run whose clock passes the interval publishes between batches, though little real time passed', async () => {
    const { r, clock, midRun, realMs } = await longRun(WINDOW_MS);
    expect(r.exitCode).toBe(0);
    // The run's clock moved by the rate-limit waits, well past the interval; the real run did not.
    expect(clock.ms - START).toBeGreaterThan(2 * WINDOW_MS);
    // A generous bound: on the machine's clock the run is far shorter than the interval.
    expect(realMs).toBeLessThan(WINDOW_MS);
    expect(midRun).toBeGreaterThan(0);
    expect(r.published?.path).toBeDefined();
    expect(await warehouseRows(r.published!.path, 'demo')).toEqual(expectedRows(sandbox!.truth('demo')));
  });

  it('a run shorter than the interval on its clock publishes only at its end', async () => {
    const { r, clock, midRun } = await longRun(24 * 3_600_000);
    expect(r.exitCode).toBe(0);
    expect(clock.ms - START).toBeLessThan(24 * 3_600_000);
    expect(midRun).toBe(0);
    expect(r.published?.path).toBeDefined();
  });
});
