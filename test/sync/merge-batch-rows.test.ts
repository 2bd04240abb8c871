// config `mergeBatchRows` bounds the records merged in one batch (docs/sync.md, Memory and threads):
// a real sync against the sandbox over HTTP into a real DuckDB file, its merger's batches read
// from its own debug log, every turn checked against the sandbox's truth.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig, resolveSyncConfig } from '../../src/config/sync-config.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { DEFAULT_MERGE_BATCH_ROWS } from '../../src/sync/load/merge-defaults.js';
import { runSync } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { DEFAULT_SITE } from '../../src/tools/sandbox/defaults.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { capturingLogger } from '../helpers/log-lines.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_merge_batch_rows_key_01';
let sandbox: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sandbox?.close();
  tmp?.cleanup();
  sandbox = undefined;
  tmp = undefined;
});

/** A logger at debug level whose lines are kept (the merger logs each batch's page count). */
function batchLogger() {
  const { logger, lines } = capturingLogger('debug');
  return { logger, batches: () => lines.filter((l) => l.msg === 'merging landed pages').map((l) => Number(l.records)) };
}

function configFile(dir: string, url: string, extra: Record<string, unknown>): string {
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ warehouse: join(dir, 'w.duckdb'), projects: [{ id: 'demo', apiKeyEnv: 'K', baseUrl: url }], ...extra }));
  return file;
}

describe('config mergeBatchRows', () => {
  it('caps every merge batch at that many records (here: one full page), and every turn still lands', async () => {
    tmp = tempDir();
    sandbox = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 6000, seed: 20 }));
    const cfg = resolveSyncConfig({
      config: configFile(tmp.dir, sandbox.url, { mergeBatchRows: 1000 }), pipelines: ['assistant_conversations'],
      rateLimit: { limit: 10_000, windowMs: 3_600_000 }, from: new Date(Date.now() - 40 * 86_400_000),
    }, { K: KEY, DOCS_ETL_BUDGET_DIR: join(tmp.dir, 'budget') });
    expect(cfg.mergeBatchRows).toBe(1000);
    const { logger, batches } = batchLogger();
    const r = await runSync({ clock: { now: () => new Date(), sleep: async () => {} }, logger, retry: { attempts: 5, baseMs: 1, maxMs: 5 } }, cfg, PIPELINES);
    expect(r.exitCode).toBe(0);
    // Pages hold at most 1,000 turns, so every page merges in a batch of its own (empty pages may join one).
    expect(batches().reduce((a, b) => a + b, 0)).toBe(6000);
    expect(batches().filter((n) => n > 0).length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...batches())).toBeLessThanOrEqual(1000);
    expect(await warehouseRows(cfg.warehouse, 'demo')).toEqual(expectedRows(sandbox.truth('demo')));
  }, 120_000);

  it('a run whose every page merges alone (as under a slow API) stays within the default memory limit', async () => {
    // Each batch's merge.sql used to leave its hash tables in DuckDB until garbage collection
    // (4–8 MiB a page): a dozen pages merged one by one ran out of the default 128MB. 30 feedback
    // pages, one per batch (mergeBatchRows below the config's floor, set as the run's own value).
    tmp = tempDir();
    sandbox = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 10, seed: 21, site: { ...DEFAULT_SITE, feedbackPerDay: 100 } }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const cfg = {
      ...defaultSyncConfig(warehouse, [{ projectId: 'demo', apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sandbox.url, organization: keyFingerprint(KEY), backfillFrom: null }],
        { rate: { limit: 10_000, windowMs: 3_600_000 }, maxWaitMs: 60_000, budgetDir: join(tmp.dir, 'budget'), pipelines: ['feedback'] }),
      mergeBatchRows: 100,
    };
    expect(cfg.duckdb.memoryLimit).toBe('128MB');
    const { logger, batches } = batchLogger();
    const r = await runSync({ clock: { now: () => new Date(), sleep: async () => {} }, logger, retry: { attempts: 5, baseMs: 1, maxMs: 5 } }, cfg, PIPELINES);
    expect(r.runs.map((run) => `${run.pipeline} ${run.status} ${run.error ?? ''}`)).toEqual(['feedback succeeded ']);
    expect(batches().filter((n) => n > 0).length).toBeGreaterThanOrEqual(25);
    expect(Math.max(...batches())).toBeLessThanOrEqual(100);
    const wh = await openWarehouse(warehouse, { readOnly: true });
    try {
      const stored = (await wh.conn.runAndReadAll('SELECT id FROM feedback ORDER BY id')).getRowObjectsJS().map((row) => String(row.id));
      // Entries with no createdAt come with the weekly sweep (a later run), not this first one.
      const dated = sandbox.feedbackTruth('demo').filter((e) => e.createdAt !== null);
      expect(stored).toEqual(dated.map((e) => e.id).sort());
    } finally {
      wh.close();
    }
  }, 120_000);

  it('defaults to 100,000; a value out of range is one line naming the field', () => {
    tmp = tempDir();
    const env = { K: KEY };
    expect(resolveSyncConfig({ config: configFile(tmp.dir, 'http://127.0.0.1:9', {}) }, env).mergeBatchRows).toBe(DEFAULT_MERGE_BATCH_ROWS);
    expect(DEFAULT_MERGE_BATCH_ROWS).toBe(100_000);
    expect(() => resolveSyncConfig({ config: configFile(tmp!.dir, 'http://127.0.0.1:9', { mergeBatchRows: 10 }) }, env))
      .toThrow(/^config file .*config\.json: mergeBatchRows: .*1000/);
  });
});
