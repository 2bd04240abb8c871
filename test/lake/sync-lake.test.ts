// `docs-etl sync` publishes the lake when one is configured (opt-in: --lake, DOCS_ETL_LAKE, config
// `lake`): real processes, the sandbox over real HTTP, s3rver on 127.0.0.1 (needs `npm run build`).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSyncConfig } from '../../src/config/sync-config.js';
import type { Manifest } from '../../src/outputs/lake/manifest.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { S3_SECRET, startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_sync_lake_key_2424';
let sb: Sandbox;
let s3: TestS3;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  tmp = tempDir('docs-etl-sync-lake-');
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 400, historyDays: 5, seed: 77, projects: ['demo'] }));
  s3 = await startS3(join(tmp.dir, 's3'));
}, 60_000);
afterAll(async () => {
  await s3?.close();
  await sb?.close();
  tmp?.cleanup();
});

const env = (extra: Record<string, string> = {}) =>
  cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn', ...(s3.env as Record<string, string>), ...extra });

async function count(warehouse: string, table: string): Promise<number> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    return Number((await wh.conn.runAndReadAll(`SELECT count(*) FROM ${table}`)).getRows()[0]![0]);
  } finally {
    wh.close();
  }
}

describe('sync --lake', () => {
  it('DOCS_ETL_LAKE=s3://…: the sync exports the lake after publishing; the next sync rewrites only what changed', async () => {
    const warehouse = join(tmp.dir, 'a', 'w.duckdb');
    const url = `s3://${s3.bucket}/synced`;
    const r = await runCli(['sync', '--warehouse', warehouse], env({ DOCS_ETL_LAKE: url }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`read snapshot published: .*\\n(.*\\n)?lake ${url}: \\d+ partition\\(s\\) written, 0 unchanged`));
    const m = JSON.parse(await s3.getText('synced/_docs_etl/manifest.json')) as Manifest;
    const rows = (t: string) => m.files.filter((e) => e.table === t).reduce((n, e) => n + e.rows, 0);
    expect(rows('conversations')).toBe(await count(warehouse, 'conversations'));
    expect(rows('conversations')).toBeGreaterThan(0);
    expect(rows('sync_runs')).toBe(await count(warehouse, 'sync_runs'));
    const again = await runCli(['sync', '--warehouse', warehouse], env({ DOCS_ETL_LAKE: url }));
    expect(again.code, again.stderr).toBe(0);
    // A new run: sync_runs and coverage changed; most partitions of the turns did not.
    expect(again.stdout).toMatch(/lake s3:\/\/\S+: \d+ partition\(s\) written, [1-9]\d* unchanged/);
    for (const out of [r, again]) expect(out.stdout + out.stderr).not.toContain(S3_SECRET);
  }, 120_000);

  it('--lake DIR wins over DOCS_ETL_LAKE; without any, sync writes no lake', async () => {
    const warehouse = join(tmp.dir, 'b', 'w.duckdb');
    const lake = join(tmp.dir, 'b', 'lake');
    // The sandbox's 5 days only (the first test reads the default history): the lake's choice is what is tested.
    const since = ['--from', new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)];
    const r = await runCli(['sync', '--warehouse', warehouse, '--lake', lake, ...since], env({ DOCS_ETL_LAKE: 's3://other-bucket/x' }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`lake ${lake}: `);
    expect(existsSync(join(lake, 'conversations'))).toBe(true);
    const plain = await runCli(['sync', '--warehouse', join(tmp.dir, 'c', 'w.duckdb'), ...since], env());
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toMatch(/^lake /m);
  }, 120_000);

  it('a lake URL it cannot write is a usage error before anything is synced', async () => {
    const warehouse = join(tmp.dir, 'd', 'w.duckdb');
    const r = await runCli(['sync', '--warehouse', warehouse], env({ DOCS_ETL_LAKE: 'gs://bucket/lake' }));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/DOCS_ETL_LAKE: unsupported lake URL "gs:\/\/bucket\/lake"/);
    expect(existsSync(warehouse)).toBe(false);
  }, 60_000);

  it('config `lake` is read, and DOCS_ETL_LAKE wins over it', () => {
    const cfgFile = join(tmp.dir, 'config.json');
    writeFileSync(cfgFile, JSON.stringify({ lake: 's3://cfg-bucket/lake', projects: [{ id: 'demo', apiKeyEnv: 'K' }] }));
    expect(resolveSyncConfig({ config: cfgFile }, { K: 'mint_x_key_1234' }).lake).toBe('s3://cfg-bucket/lake');
    expect(resolveSyncConfig({ config: cfgFile }, { K: 'mint_x_key_1234', DOCS_ETL_LAKE: '/srv/lake' }).lake).toBe('/srv/lake');
    expect(resolveSyncConfig({ config: cfgFile, lake: 'x' }, { K: 'mint_x_key_1234', DOCS_ETL_LAKE: '/srv/lake' }).lake).toBe('x');
  });
});
