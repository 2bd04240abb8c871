// Corrupted local state is detected with a clear message and recovered without losing warehouse data.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/load/warehouse.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { expectedRows, scalar, warehouseRows } from '../helpers/compare.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_corrupted_state_key';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir();
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 4500, seed: 63 }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

const env = () => cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'info' });

describe('corrupted local state', () => {
  it('a damaged request log is reported and replaced; the sync completes', async () => {
    const dir = join(tmp.dir, 'log');
    const warehouse = join(dir, 'w.duckdb');
    expect((await runCli(['sync', '--warehouse', warehouse], env())).code).toBe(0);
    const [logFile] = readdirSync(join(dir, 'budget')).filter((f) => f.endsWith('.json'));
    writeFileSync(join(dir, 'budget', logFile!), '{"entries":[{"id":"01J', 'utf8');
    const r = await runCli(['sync', '--warehouse', warehouse], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/request log was damaged: starting a fresh one/);
    expect(JSON.parse(readFileSync(join(dir, 'budget', logFile!), 'utf8')).entries.length).toBeGreaterThan(0);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
  });

  it('a file that is not a DuckDB warehouse: one clear line, exit 1, the file left as it was', async () => {
    const file = join(tmp.dir, 'not-a-warehouse.duckdb');
    const bytes = Buffer.from('this is a spreadsheet, not a database\n'.repeat(200));
    writeFileSync(file, bytes);
    const r = await runCli(['sync', '--warehouse', file], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/docs-etl: error: warehouse .*not-a-warehouse\.duckdb is damaged or not a DuckDB file/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    const s = await runCli(['status', '--warehouse', file], env());
    expect(s.code).toBe(1);
    expect(s.stderr).toMatch(/damaged or not a DuckDB file/);
  });

  it('a damaged checkpoint cursor is rejected by the API and the window restarts: nothing lost', async () => {
    const warehouse = join(tmp.dir, 'cursor', 'w.duckdb');
    const stopped = await runCli(['sync', '--warehouse', warehouse, '--rate-limit', '2/1h', '--max-wait', '0s'], env());
    expect(stopped.code).toBe(3);
    const wh = await openWarehouse(warehouse);
    try {
      await wh.conn.run("UPDATE sync_state SET cursor = 'garbage-!!-not-a-ulid'");
    } finally {
      wh.close();
    }
    const r = await runCli(['sync', '--warehouse', warehouse, '--rate-limit', '1000/1h'], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/stored cursor rejected: restarting the window/);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
  });

  it('a half-written export (temp file, truncated manifest) is detected and repaired', async () => {
    const warehouse = join(tmp.dir, 'lake', 'w.duckdb');
    const lake = join(tmp.dir, 'lake', 'out');
    expect((await runCli(['sync', '--warehouse', warehouse], env())).code).toBe(0);
    expect((await runCli(['export-parquet', '--warehouse', warehouse, '--out', lake], env())).code).toBe(0);
    const manifest = join(lake, '_docs_etl', 'manifest.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').slice(0, 50));
    const partition = join(lake, 'conversations', 'project_id=demo');
    const day = readdirSync(partition)[0]!;
    const leftover = join(partition, day, '.part-0.deadbeef.parquet.tmp');
    writeFileSync(leftover, 'PAR1 half a file');
    const r = await runCli(['export-parquet', '--warehouse', warehouse, '--out', lake], env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/manifest/i);
    expect(existsSync(leftover)).toBe(false);
    const mem = await openWarehouse(':memory:');
    try {
      const inLake = await mem.conn.runAndReadAll(`SELECT count(*) FROM read_parquet('${lake}/conversations/**/*.parquet', hive_partitioning = true)`);
      expect(inLake.getRows()[0]![0]).toBe(BigInt(sb.truth('demo').length));
    } finally {
      mem.close();
    }
    expect(await scalar(warehouse, 'SELECT count(*) FROM conversations')).toBe(BigInt(sb.truth('demo').length));
  });
});
