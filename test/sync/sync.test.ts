// The sync against the sandbox over real HTTP into a real DuckDB file, run in-process.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig, type SyncConfig } from '../../src/config/sync-config.js';
import { pino } from 'pino';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { normalizeOffset, type ConversationTurn } from '../../src/contracts/analytics.js';
import { runSync, type SyncDeps } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import type { SandboxOptions } from '../../src/tools/sandbox/options.js';
import { expectedRows, scalar, warehouseRows } from '../helpers/compare.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_sync_test_key_0001';
const FAST_RETRY = { attempts: 12, baseMs: 1, maxMs: 20 };

let sandbox: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sandbox?.close();
  tmp?.cleanup();
  sandbox = undefined;
  tmp = undefined;
});

async function setup(opts: Partial<SandboxOptions>) {
  tmp = tempDir();
  sandbox = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], ...opts }));
  return { sb: sandbox, dir: tmp.dir, warehouse: join(tmp.dir, 'w.duckdb') };
}

function config(warehouse: string, url: string, over: Partial<SyncConfig> = {}, backfillFrom: Date | null = null): SyncConfig {
  return defaultSyncConfig(warehouse,
    [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: url, organization: keyFingerprint(KEY), backfillFrom }],
    // The assistant stream alone: these tests count its requests and compare it with its truth. The
    // read snapshot as a plain copy: what these tests read is the warehouse (the catalog surface's own
    // tests are in test/publish/; the mid-run publish test below uses the default surface).
    { rate: { limit: 10_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, pipelines: ['assistant_conversations'], readSurface: 'copy', ...over });
}

/** The fewest requests that read these windows: a page per 1,000 turns, at least one per window. */
function idealRequests(truth: ConversationTurn[], windows: readonly { from: Date; to: Date }[]): number {
  const at = truth.map((t) => Date.parse(normalizeOffset(t.timestamp)));
  return windows.reduce((n, w) => n + Math.max(1, Math.ceil(at.filter((x) => x >= w.from.getTime() && x < w.to.getTime()).length / 1000)), 0);
}

const deps = (over: Partial<SyncDeps> = {}): SyncDeps => ({ clock: { now: () => new Date(), sleep: async () => {} }, logger: silentLogger, retry: FAST_RETRY, ...over });
const analyticsRequests = (sb: Sandbox) => sb.requestLog(KEY).filter((r) => r.path.startsWith('/v1/analytics/'));
/** The reads of the assistant's export (the first all-history run also probes caller-stats: run/history-probe.ts). */
const exportReads = (sb: Sandbox) => analyticsRequests(sb).filter((r) => !r.path.endsWith('/caller-stats'));

describe('sync', () => {
  it('a first full sync equals the sandbox truth exactly, reading no page twice', async () => {
    const { sb, warehouse } = await setup({ conversations: 2500, seed: 7 });
    const r = await runSync(deps(), config(warehouse, sb.url), PIPELINES);
    expect(r.exitCode).toBe(0);
    const truth = sb.truth('demo');
    expect(truth.length).toBe(2500);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(truth));
    const run = r.runs[0]!;
    // A one-hour head, weekly backfill windows newest first, the first empty one, then everything older as one.
    expect(run.windows.map((w) => w.purpose)).toEqual(['head', ...Array(run.windows.length - 1).fill('backfill')]);
    expect(run.windows.at(-1)!.from.getTime()).toBe(0);
    expect(run.windows.every((w) => w.complete)).toBe(true);
    expect(exportReads(sb)).toHaveLength(idealRequests(truth, run.windows));
    // The probe of where history starts: a count and a search over 64 weeks, once, in the run's requests.
    expect(analyticsRequests(sb).length - exportReads(sb).length).toBeLessThanOrEqual(9);
    expect(run).toMatchObject({ status: 'succeeded', requests: analyticsRequests(sb).length, upserted: 2500, quarantined: 0 });
  });

  it('with --from and a window that holds it all, a first sync costs ceil(N/1000) requests plus the head', async () => {
    const { sb, warehouse } = await setup({ conversations: 2500, seed: 7 });
    const from = new Date(Date.now() - 31 * 86_400_000);
    const r = await runSync(deps(), config(warehouse, sb.url, { plan: { ...config(warehouse, sb.url).plan, maxWindowMs: 32 * 86_400_000 } }, from), PIPELINES);
    expect(r.exitCode).toBe(0);
    expect(r.runs[0]!.windows.map((w) => w.purpose)).toEqual(['head', 'backfill']);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    expect(analyticsRequests(sb)).toHaveLength(idealRequests(sb.truth('demo'), r.runs[0]!.windows));
  });

  it('a re-run with nothing new reads only the head and changes nothing', async () => {
    const { sb, warehouse } = await setup({ conversations: 1500, seed: 8 });
    await runSync(deps(), config(warehouse, sb.url), PIPELINES);
    const before = analyticsRequests(sb).length;
    const firstSeen = await scalar(warehouse, 'SELECT max(first_seen_at)::VARCHAR FROM conversations');
    const r = await runSync(deps(), config(warehouse, sb.url), PIPELINES);
    expect(r.exitCode).toBe(0);
    expect(analyticsRequests(sb).length - before).toBe(1);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    expect(await scalar(warehouse, 'SELECT max(first_seen_at)::VARCHAR FROM conversations')).toBe(firstSeen);
    expect(await scalar(warehouse, "SELECT count(*) FROM sync_runs WHERE status = 'succeeded'")).toBe(2n);
  });

  it('picks up late arrivals and later category fills with the scheduled re-read', async () => {
    const clock = new FakeClock(Date.parse('2026-11-01T12:00:00Z'));
    const { sb, warehouse } = await setup({ conversations: 1500, seed: 9, live: true, liveTurnsPerMinute: 10, clock });
    const cfg = config(warehouse, sb.url);
    clock.advance(3 * 3_600_000);
    await runSync(deps({ clock }), cfg, PIPELINES);
    const t1 = clock.now();
    const first = new Map(sb.truth('demo').map((t) => [`${t.id}|${t.timestamp}`, t]));
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows([...first.values()]));

    clock.advance(4 * 3_600_000);
    const second = await runSync(deps({ clock }), cfg, PIPELINES);
    expect(second.runs[0]!.windows.map((w) => w.purpose)).toContain('recheck');
    const truth = sb.truth('demo');
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(truth));
    // The situations this test is about really happened in the data:
    const late = truth.filter((t) => !first.has(`${t.id}|${t.timestamp}`) && Date.parse(t.timestamp) < t1.getTime());
    const recategorized = truth.filter((t) => first.get(`${t.id}|${t.timestamp}`)?.queryCategory === null && t.queryCategory !== null);
    expect(late.length).toBeGreaterThan(0);
    expect(recategorized.length).toBeGreaterThan(0);
  });

  it('a rejected stored cursor restarts the window: nothing lost, nothing duplicated', async () => {
    const { sb, warehouse } = await setup({ conversations: 3500, seed: 10 });
    // One backfill window of 4 pages; a stop request after the third page ends the first run in its middle.
    const from = new Date(Date.now() - 31 * 86_400_000);
    const wide = { plan: { ...config(warehouse, sb.url).plan, maxWindowMs: 32 * 86_400_000 } };
    const stop = new AbortController();
    const stopped = await runSync(deps({ signal: stop.signal, onPage: (s) => { if (s.pages === 3) stop.abort(); } }), config(warehouse, sb.url, wide, from), PIPELINES);
    expect(stopped.runs[0]).toMatchObject({ status: 'stopped', pages: 3 });
    expect(await scalar(warehouse, 'SELECT cursor IS NOT NULL FROM sync_state')).toBe(true);
    sb.expireCursors();
    const r = await runSync(deps(), config(warehouse, sb.url, wide, from), PIPELINES);
    expect(r.exitCode).toBe(0);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    expect(analyticsRequests(sb).filter((x) => x.status === 400)).toHaveLength(1);
  });

  it('loses nothing under 5xx, resets, truncated bodies, repeated and malformed records', async () => {
    const { sb, warehouse } = await setup({
      conversations: 4000, seed: 11, faultRate: 0.5, faults: ['http5xx', 'reset', 'truncate', 'repeat'], malformedRate: 0.01,
    });
    const r = await runSync(deps(), config(warehouse, sb.url), PIPELINES);
    expect(r.exitCode).toBe(0);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    const malformed = sb.malformed('demo').length;
    expect(malformed).toBeGreaterThan(0);
    expect(await scalar(warehouse, 'SELECT count(*) FROM quarantine')).toBe(BigInt(malformed));
    // The faults really happened: server errors and connections reset without a response.
    const statuses = analyticsRequests(sb).map((x) => x.status);
    expect(statuses.some((s) => s >= 500)).toBe(true);
    expect(statuses.some((s) => s === 0)).toBe(true);
  });

  it('a long run publishes the read snapshot between batches (publishInterval), readers see its progress', async () => {
    const { sb, warehouse } = await setup({ conversations: 3000, seed: 14, latencyMs: 30 });
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    const r = await runSync(deps({ logger }), config(warehouse, sb.url, { publishIntervalMs: 0, readSurface: 'catalog' }), PIPELINES);
    expect(r.exitCode).toBe(0);
    const midRun = lines.filter((l) => l.includes('read snapshot published (run in progress)'));
    expect(midRun.length).toBeGreaterThan(0);
    expect(r.published?.path).toBe(join(warehouse, '..', 'read', 'w.duckdb'));
    expect(await warehouseRows(r.published!.path, 'demo')).toEqual(expectedRows(sb.truth('demo')));
  });

  it('waits for the window after a 429 and continues', async () => {
    const clock = new FakeClock(Date.parse('2026-11-01T12:00:00Z'));
    const { sb, warehouse } = await setup({ conversations: 2000, seed: 12, rateLimit: { limit: 2, windowMs: 60_000 }, clock });
    // The client believes it has plenty of budget; the server disagrees and answers 429.
    const r = await runSync(deps({ clock }), config(warehouse, sb.url, { maxWaitMs: 10 * 60_000 }), PIPELINES);
    expect(r.exitCode).toBe(0);
    expect(analyticsRequests(sb).some((x) => x.status === 429)).toBe(true);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
  });
});
