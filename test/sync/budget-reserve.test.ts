// The reserve holds while a window runs (in-process, injected clock, real sandbox and DuckDB): the
// demo's set-up at an hour of the day where its first sync used to spend 99 of 100 requests (a
// backfill window read far more pages than the head's density promised) and its second sync, a few
// seconds later, stopped every stream with budget_exhausted (exit 3). Now the backfill pauses at a
// page boundary once the budget left is what the heads need, the run right after reads every head
// and exits 0, and an hour later the paused window is resumed from its cursor, not from its start.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { RequestLog } from '../../src/budget/request-log.js';
import { runSync, type SyncResult } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { capturingLogger } from '../helpers/log-lines.js';
import { tempDir } from '../helpers/tmp.js';
import { maxInWindow } from '../helpers/window-stats.js';

const KEY = 'mint_budget_reserve_key_0009';
const H = 3_600_000;
// 18:07 UTC: before the pause, the demo's first sync at this hour used 99 requests (measured).
const START = Date.parse('2026-11-24T18:07:00Z');
const tmp = tempDir('docs-etl-budget-reserve-');
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  tmp.cleanup();
});

/** A sandbox and a sync config over `<tmp>/<dir>`, the clock at START (the same history in each). */
async function setUp(dir: string) {
  const clock = new FakeClock(START);
  const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 20_000, live: true, liveTurnsPerMinute: 600, clock }));
  sandboxes.push(sb);
  const cfg = defaultSyncConfig(join(tmp.dir, dir, 'w.duckdb'),
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: null }],
    // The read surface as a copy: publishing after each run is not what this file is about, and the
    // catalog's Parquet export of every table after each run was a quarter of its CPU (measured).
    { maxWaitMs: 60_000, budgetDir: join(tmp.dir, dir, 'budget'), landingDir: join(tmp.dir, dir, 'landing'), readSurface: 'copy' });
  return { clock, sb, cfg };
}

// The first sync at 18:07 is the same in both tests (same history, clock and budget): it runs once,
// into 'a' (the first test continues it there, on its sandbox); the second test continues a copy of
// its state folder (warehouse, landing zone, request log) against its own sandbox and clock at START.
let a: Awaited<ReturnType<typeof setUp>>;
let first: SyncResult;
beforeAll(async () => {
  a = await setUp('a');
  first = await runSync({ clock: a.clock, logger: capturingLogger().logger }, a.cfg, PIPELINES);
  cpSync(join(tmp.dir, 'a'), join(tmp.dir, 'b'), { recursive: true });
}, 120_000);

describe('the reserve for the next run\'s heads', () => {
  it('a backfill that outruns its estimate pauses at the reserve; the next run reads every head; the paused window resumes from its cursor', async () => {
    const { clock, sb, cfg } = a;

    expect(first.exitCode).toBe(0);
    const streams = first.runs.length;
    const spent = first.runs.reduce((n, r) => n + r.requests, 0);
    // One request kept per stream with a head, for a run soon after.
    expect(spent).toBeLessThanOrEqual(100 - streams);
    const feedback = first.runs.find((r) => r.pipeline === 'feedback')!;
    const paused = feedback.windows.filter((w) => !w.complete);
    expect(paused).toHaveLength(1);
    expect(paused[0]!.purpose).toBe('backfill');
    expect(feedback.status).toBe('succeeded');

    // A manual run seconds later (the demo's second sync): every stream reads, none stops on the budget.
    clock.advance(1500);
    const second = await runSync({ clock, logger: capturingLogger().logger }, cfg, PIPELINES);
    expect(second.runs.map((r) => `${r.pipeline}:${r.status}`)).toEqual(second.runs.map((r) => `${r.pipeline}:succeeded`));
    expect(second.exitCode).toBe(0);
    expect(second.runs.find((r) => r.pipeline === 'assistant_conversations')!.windows.map((w) => [w.purpose, w.complete])).toEqual([['head', true]]);
    // Feedback's head first; what the heads left of the reserve may go to the open backfill again.
    expect(second.runs.find((r) => r.pipeline === 'feedback')!.windows.map((w) => [w.purpose, w.complete])[0]).toEqual(['head', true]);

    // An hour later the paused window continues where it stopped.
    clock.advance(H);
    const { logger, lines } = capturingLogger();
    const third = await runSync({ clock, logger }, cfg, PIPELINES);
    expect(third.exitCode).toBe(0);
    const resumed = lines.filter((l) => l.msg === 'resuming open window' && l.pipeline === 'feedback');
    // Its checkpoint kept every page read so far, in both runs (the second merged its head's pages
    // before the resumed window's, in one batch).
    const again = second.runs.find((r) => r.pipeline === 'feedback')!.windows.filter((w) => w.purpose === 'backfill');
    expect(resumed.map((l) => [l.purpose, l.pages])).toEqual([['backfill', paused[0]!.pages + again.reduce((n, w) => n + w.pages, 0)]]);
    expect(third.runs.find((r) => r.pipeline === 'feedback')!.windows.find((w) => w.purpose === 'backfill')).toMatchObject({ from: paused[0]!.from, complete: true });
    const log = sb.requestLog(KEY).filter((r) => r.path.startsWith('/v1/analytics/'));
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    expect(maxInWindow(log.map((r) => r.at), H)).toBeLessThanOrEqual(100);
  }, 120_000);

  it('a paused window that the next run defers entirely (its heads merged without it) is resumed later, not read again from its start', async () => {
    const { clock, cfg } = await setUp('b');
    const paused = first.runs.find((r) => r.pipeline === 'feedback')!.windows.filter((w) => !w.complete);
    expect(paused.map((w) => w.purpose)).toEqual(['backfill']);

    // Another host of the organization spent the hour's budget down to 4 requests: seconds after
    // the first run, two streams read a head (1 request each) and keep 2 in reserve, so the second
    // run reads its heads and defers the open window without a request.
    clock.advance(1500);
    const left = 4;
    await new RequestLog(cfg.budgetDir, keyFingerprint(KEY)).update((s) => {
      const now = clock.now().getTime();
      const used = s.entries.filter((e) => e.start > now - H).length;
      for (let i = 0; i < 100 - used - left; i++) s.entries.push({ id: `other-${i}`, start: now, end: now, pid: process.pid });
    });
    const second = await runSync({ clock, logger: capturingLogger().logger }, cfg, PIPELINES);
    expect(second.exitCode).toBe(0);
    expect(second.plans.map((p) => p.plan.reserve)).toEqual([2]);
    expect(second.runs.find((r) => r.pipeline === 'feedback')!.windows.map((w) => [w.purpose, w.complete])).toEqual([['head', true]]);

    // An hour later it continues from its cursor with the pages read before.
    clock.advance(H);
    const { logger, lines } = capturingLogger();
    const third = await runSync({ clock, logger }, cfg, PIPELINES);
    expect(third.exitCode).toBe(0);
    const resumed = lines.filter((l) => l.msg === 'resuming open window' && l.pipeline === 'feedback');
    expect(resumed.map((l) => [l.purpose, l.pages])).toEqual([['backfill', paused[0]!.pages]]);
    expect(third.runs.find((r) => r.pipeline === 'feedback')!.windows.find((w) => w.purpose === 'backfill')).toMatchObject({ from: paused[0]!.from, complete: true });
  }, 120_000);
});
