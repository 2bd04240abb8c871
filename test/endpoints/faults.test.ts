// Every pipeline under the sandbox's faults (docs/sandbox.md: body faults apply to every endpoint):
// a repeated record is read twice but loaded once; a broken body (truncated, or every field of
// the wrong type), a 5xx or a reset connection is retried like a failed request, never loaded nor
// quarantined as a record. Every table then equals the truth and the quarantine is empty.
// In-process sync of all seven pipelines, over real HTTP into a real DuckDB file, with one frozen
// injected clock for the sandbox and the sync (retries take no time, the truth cannot move).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type FaultKind, type Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import {
  DAY_MS, PIPELINE_NAMES, actualAndExpected, completeDays, query, rewritingProxy, utcMidnight, type PipelineName, type Proxy,
} from './exports-helpers.js';

const KEY = 'mint_exports_faults_key_01';
const NOW = Date.parse('2026-04-02T09:00:00Z');
const FROM = utcMidnight(NOW) - 6 * DAY_MS;
const DAYS = completeDays(FROM, NOW);
/** Views and visitors over two pages a day, searches cut at 100 terms, by-page split on busy days. */
const SITE = { pages: 300, feedbackPerDay: 150, searchesPerDay: 2000, viewsPerDay: 10_000 };

let sb: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
let proxy: Proxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await sb?.close();
  tmp?.cleanup();
  sb = undefined;
  tmp = undefined;
});

async function syncUnder(
  faults: FaultKind[], faultRate: number, seed: number, through?: (sandboxUrl: string) => Promise<Proxy>, pipelines: PipelineName[] | null = null,
): Promise<{ sb: Sandbox; warehouse: string }> {
  const clock = new FakeClock(NOW, { sleepAdvances: false });
  tmp = tempDir('docs-etl-exports-faults-');
  sb = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], conversations: 2500, historyDays: 5, seed, site: SITE, clock, faultRate, faults,
  }));
  proxy = through ? await through(sb.url) : undefined;
  const warehouse = join(tmp.dir, 'w.duckdb');
  const cfg = defaultSyncConfig(warehouse, [{
    projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: proxy?.url ?? sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date(FROM),
  }], { rate: { limit: 100_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, pipelines });
  // Twice: the second run sweeps the feedback entries without createdAt.
  for (let i = 0; i < 2; i++) {
    const r = await runSync({ clock, logger: silentLogger, retry: { attempts: 12, baseMs: 1, maxMs: 5 } }, cfg, PIPELINES);
    expect(r.runs.filter((x) => x.status !== 'succeeded').map((x) => `${x.pipeline}: ${x.status} ${x.error}`)).toEqual([]);
    expect(r.exitCode).toBe(0);
  }
  return { sb, warehouse };
}

async function expectTruth(s: Sandbox, warehouse: string, pipelines: readonly string[] = PIPELINE_NAMES): Promise<void> {
  for (const pipeline of pipelines) {
    const { actual, expected } = await actualAndExpected(s, warehouse, pipeline as PipelineName, 'demo', DAYS);
    expect(expected.length).toBeGreaterThan(0);
    expect(actual, pipeline).toEqual(expected);
  }
  expect(await query(warehouse, 'SELECT pipeline, error FROM quarantine')).toEqual([]);
}

describe('faults', () => {
  it('repeated records (a record of the previous page again, or a copy of the first): each loaded once, counted once', async () => {
    const { sb: s, warehouse } = await syncUnder(['repeat'], 0.5, 1361);
    await expectTruth(s, warehouse);
  });

  it('broken bodies (truncated, wrong-typed fields), 5xx and resets are retried: nothing lost, nothing quarantined', async () => {
    const { sb: s, warehouse } = await syncUnder(['malformed', 'truncate', 'http5xx', 'reset'], 0.3, 1362);
    await expectTruth(s, warehouse);
    // The faults really happened, on every endpoint.
    const log = s.requestLog(KEY);
    expect(log.some((x) => x.status >= 500)).toBe(true);
    expect(log.some((x) => x.status === 0)).toBe(true);
    const endpoints = new Set(log.map((x) => x.path.replace('/v1/analytics/demo', '')));
    expect([...endpoints].sort()).toEqual(['/assistant', '/assistant/caller-stats', '/feedback', '/feedback/by-page', '/searches', '/views', '/visitors']);
  });

  it('caller stats, whose whole body is the record: an answer broken once (every field of the wrong type) is asked again, not quarantined', async () => {
    // The sandbox's malformed fault, made deterministic: the first answer of each day is broken. Only
    // the caller-stats pipeline is synced: the proxy breaks nothing else (every pipeline under the
    // sandbox's faults: the tests above).
    const seen = new Set<string>();
    const { sb: s, warehouse } = await syncUnder([], 0, 1363, (url) => rewritingProxy(url, (endpoint, params, body) => {
      const day = params.get('dateFrom') ?? '';
      if (endpoint !== '/assistant/caller-stats' || seen.has(day)) return;
      seen.add(day);
      for (const k of Object.keys(body)) body[k] = 'many';
    }), ['assistant_callers']);
    expect(seen.size).toBe(DAYS.length);
    await expectTruth(s, warehouse, ['assistant_callers']);
  });
});
