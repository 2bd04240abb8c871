// A half-written Parquet lake (docs-etl export-parquet): temp files a killed export left, a
// truncated manifest, a stale lock, a damaged data file. Each is detected with a clear message and
// recovered by the next export; the lake then equals the warehouse, and the warehouse is untouched.
import { hostname } from 'node:os';
import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { runMain } from '../helpers/in-process-cli.js';
import { smallSandboxOptions } from '../helpers/small-sandbox.js';
import { syncBase } from '../helpers/synced-base.js';
import { tempDir } from '../helpers/tmp.js';
import { sha256 } from './reliability-helpers.js';

const KEY = 'mint_reliability_lake';
let sb: Sandbox;
const tmp = tempDir('docs-etl-lake-damage-');
const warehouse = join(tmp.dir, 'w.duckdb');
const lake = join(tmp.dir, 'lake');
let warehouseSha = '';

const exportArgs = (extra: string[]) => ['export-parquet', '--warehouse', warehouse, '--out', lake, ...extra];
// The built CLI, as a user runs it (its exit code, stdout and stderr lines).
const exportLake = (...extra: string[]) => runCli(exportArgs(extra), cliEnv({ LOG_LEVEL: 'info' }));
// The same `main` in-process, without a Node start and DuckDB load: for the cases whose point is the
// lake the export leaves, not the process.
const exportInProcess = (...extra: string[]) => runMain(exportArgs(extra), cliEnv({ LOG_LEVEL: 'info' }));

function files(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

/** Count and content fingerprint of a table in the warehouse and in the lake. */
async function fingerprints(table: 'conversations' | 'sources'): Promise<{ warehouse: unknown; lake: unknown }> {
  const cols = table === 'conversations' ? 'project_id, id, occurred_at, query, response, query_category' : 'project_id, conversation_id, occurred_at, position, title, url';
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const q = async (from: string) =>
      (await wh.conn.runAndReadAll(`SELECT count(*)::VARCHAR, sum(hash(${cols}))::VARCHAR FROM ${from}`)).getRows()[0];
    return {
      warehouse: await q(table),
      lake: await q(`read_parquet('${join(lake, table)}/**/*.parquet', hive_partitioning = false)`),
    };
  } finally {
    wh.close();
  }
}

async function expectLakeEqualsWarehouse() {
  for (const t of ['conversations', 'sources'] as const) {
    const f = await fingerprints(t);
    expect(f.lake, t).toEqual(f.warehouse);
  }
  expect(files(lake).filter((f) => f.endsWith('.tmp'))).toEqual([]);
}

beforeAll(async () => {
  // A small history (a week: a partition per day), synced in-process: the first sync is only setup.
  sb = await startSandbox(smallSandboxOptions({ apiKeys: [KEY], seed: 91 }));
  await syncBase({ url: sb.url, key: KEY, projects: ['demo'] }, tmp.dir);
  const e = await exportInProcess();
  expect(e.code, e.stderr).toBe(0);
  warehouseSha = sha256(warehouse);
}, 60_000);

afterAll(async () => {
  // The warehouse was only ever read: same bytes, same rows.
  expect(sha256(warehouse)).toBe(warehouseSha);
  expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
  await sb.close();
  tmp.cleanup();
});

describe('a half-written lake', () => {
  it('temp files of a killed export are removed, with a log line saying so', async () => {
    const partition = files(join(lake, 'conversations')).find((f) => f.endsWith('part-0.parquet'))!;
    const dir = join(partition, '..');
    writeFileSync(join(dir, '.part-0.0123abcd.parquet.tmp'), 'PAR1 half a file');
    writeFileSync(join(lake, '_docs_etl', '.manifest.0123abcd.json.tmp'), '{"version":1,"partit');
    const r = await exportLake();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/removed temp files of an interrupted export/);
    await expectLakeEqualsWarehouse();
  }, 30_000);

  it('a truncated manifest: a warning, every partition rewritten, a sound manifest again', async () => {
    const manifest = join(lake, '_docs_etl', 'manifest.json');
    truncateSync(manifest, Math.floor(statSync(manifest).size / 2));
    const r = await exportLake();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/lake manifest unreadable; rewriting every file/);
    expect(r.stdout).toMatch(/: [1-9]\d* partition\(s\) written, 0 unchanged/);
    expect(() => JSON.parse(readFileSync(manifest, 'utf8')) as unknown).not.toThrow();
    await expectLakeEqualsWarehouse();
  }, 30_000);

  it('a lock left by a dead export is taken over', async () => {
    writeFileSync(join(lake, '_docs_etl', 'lock'), JSON.stringify({ pid: 2 ** 22 + 17, host: hostname(), startedAt: new Date(0).toISOString(), instance: 'gone' }));
    const r = await exportInProcess();
    expect(r.code, r.stderr).toBe(0);
    await expectLakeEqualsWarehouse();
  }, 30_000);

  it('a truncated data file under its final name is noticed by its size and rewritten by the next export', async () => {
    const victim = files(join(lake, 'conversations')).find((f) => f.endsWith('part-0.parquet'))!;
    truncateSync(victim, Math.floor(statSync(victim).size / 2));
    const r = await exportInProcess();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ 1 partition\(s\) written/);
    await expectLakeEqualsWarehouse();
  }, 30_000);

  it('a data file damaged in place with its size kept is rewritten by --full', async () => {
    const victim = files(join(lake, 'conversations')).find((f) => f.endsWith('part-0.parquet'))!;
    const buf = readFileSync(victim);
    buf.fill(0x41, 0, Math.min(buf.length, 64));
    writeFileSync(victim, buf);
    const r = await exportInProcess('--full');
    expect(r.code, r.stderr).toBe(0);
    await expectLakeEqualsWarehouse();
  }, 30_000);
});
