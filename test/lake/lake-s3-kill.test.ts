// The real CLI process exporting to an S3-compatible server (s3rver on 127.0.0.1), SIGKILLed while
// it uploads (needs `npm run build`; the test command builds first). The manifest is the commit
// point: after the kill it still names only complete objects that exist; the next normal run
// removes the killed run's uploads, and its manifest names every object once with the warehouse's
// counts; a run after it uploads nothing.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/outputs/lake/manifest.js';
import { openIcebergIO } from '../../src/outputs/lake/iceberg/iceberg-io.js';
import { referencedFiles } from '../../src/outputs/lake/iceberg/remove-unreferenced.js';
import { readTableState } from '../../src/outputs/lake/iceberg/table-state.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { keyIn, S3_SECRET, startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';
import { publishForReaders } from '../helpers/publish.js';
import { waitFor } from '../helpers/wait.js';
import { fillWarehouse } from './lake-fixture.js';

const DIST_MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const PREFIX = 'org/lake/';

describe('export-parquet to S3, killed mid-upload', () => {
  let tmp: ReturnType<typeof tempDir>;
  let s3: TestS3;
  let warehouse: string;
  let url: string;

  beforeAll(async () => {
    if (!existsSync(DIST_MAIN)) throw new Error('dist/ is missing: run `npm run build` before this test');
    tmp = tempDir('docs-etl-lake-s3-kill-');
    warehouse = join(tmp.dir, 'w.duckdb');
    const wh = await openWarehouse(warehouse);
    try {
      // 3 projects x 12 days: 72 partition files, far more than the 10 written before the kill.
      await fillWarehouse(wh.conn, { days: 12, turnsPerDay: 50 });
    } finally {
      wh.close();
    }
    await publishForReaders(warehouse);
    s3 = await startS3(join(tmp.dir, 's3'));
    url = `s3://${s3.bucket}/${PREFIX}`;
  }, 60_000);
  afterAll(async () => {
    await s3?.close();
    tmp?.cleanup();
  });

  const env = () => cliEnv({ LOG_LEVEL: 'warn', ...s3.env } as Record<string, string>);
  const dataKeys = async () => [...(await s3.list(PREFIX)).keys()].filter((k) => k.endsWith('.parquet'));
  const manifest = async () => JSON.parse(await s3.getText(`${PREFIX}_docs_etl/manifest.json`)) as Manifest;
  /** Data keys a retained Iceberg snapshot of any table names. */
  const icebergRetained = async () => {
    const io = await openIcebergIO(`s3://${s3.bucket}/${PREFIX}`, s3.env);
    try {
      const out = new Set<string>();
      for (const t of LAKE_TABLES) {
        const state = await readTableState(io, t.name);
        if (state.metadata) for (const k of (await referencedFiles(io, t.name, state.metadata)).data) out.add(k);
      }
      return out;
    } finally {
      io.close();
    }
  };

  async function warehouseCounts(): Promise<Record<string, number>> {
    const wh = await openWarehouse(warehouse, { readOnly: true });
    try {
      const out: Record<string, number> = {};
      // The fixture's tables with rows, and every one-file table (its file exists even when empty).
      for (const t of ['conversations', 'sources', ...LAKE_TABLES.filter((x) => x.layout.by === 'none').map((x) => x.name)]) {
        out[t] = Number((await wh.conn.runAndReadAll(`SELECT count(*) FROM ${t}`)).getRows()[0]![0]);
      }
      return out;
    } finally {
      wh.close();
    }
  }

  /** The manifest names each object once, every one exists, and each holds the rows it says; returns rows per table. */
  async function checkManifest(m: Manifest): Promise<Record<string, number>> {
    const objects = await s3.list(PREFIX);
    const keys = m.files.map((e) => e.key);
    expect(new Set(keys).size, 'nothing listed twice').toBe(keys.length);
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const local = join(tmp.dir, `dl-${Date.parse(m.updatedAt)}-${keys.length}`);
    const rows: Record<string, number> = {};
    for (const e of m.files) {
      expect(objects.get(`${PREFIX}${e.key}`)?.bytes, `${e.key} exists with its size`).toBe(e.bytes);
      mkdirSync(join(local, e.key, '..'), { recursive: true });
      await s3.download(`${PREFIX}${e.key}`, keyIn(local, e.key));
      const n = Number((await conn.runAndReadAll('SELECT count(*) FROM read_parquet($f)', { f: keyIn(local, e.key) })).getRows()[0]![0]);
      expect(n, e.key).toBe(e.rows);
      rows[e.table] = (rows[e.table] ?? 0) + n;
    }
    conn.closeSync();
    return rows;
  }

  it('keeps the previous manifest valid, and the next run converges with nothing twice', async () => {
    const first = await runCli(['export-parquet', '--out', url, '--warehouse', warehouse], env());
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    const before = await dataKeys();
    // Every turn changes: the next export rewrites every partition (new keys on S3).
    const wh = await openWarehouse(warehouse);
    await wh.conn.run(`UPDATE conversations SET last_seen_at = TIMESTAMPTZ '2026-06-03 00:00:00+00'`);
    await wh.conn.run(`DELETE FROM conversations WHERE project_id = 'beta' AND occurred_at < TIMESTAMPTZ '2026-03-03 00:00:00+00'`);
    await wh.conn.run(`DELETE FROM sources WHERE project_id = 'beta' AND occurred_at < TIMESTAMPTZ '2026-03-03 00:00:00+00'`);
    wh.close();
    await publishForReaders(warehouse);
    const expected = await warehouseCounts();

    // The child logs each uploaded file (debug): killed once it has logged 10, mid-run.
    const child = spawnCli(['export-parquet', '--out', url, '--warehouse', warehouse], { ...env(), LOG_LEVEL: 'debug' });
    let log = '';
    child.stderr!.on('data', (d) => (log += String(d)));
    await waitFor(() => (log.match(/"lake file written"/g)?.length ?? 0) >= 10 || child.exitCode !== null, 60_000);
    child.kill('SIGKILL');
    const killed = await child.result;
    expect(killed.signal, 'killed before it finished').toBe('SIGKILL');
    const afterKill = await dataKeys();
    expect(afterKill.length).toBeGreaterThan(before.length); // uploads no manifest names yet (or a checkpoint's)
    // The manifest in place (the first run's, or a checkpoint) is valid: complete objects that exist.
    await checkManifest(await manifest());
    // The killed export staged its files in the warehouse's state folder (never the system's temp
    // folder), and left them there.
    const staging = join(tmp.dir, 'lake-staging');
    expect(readdirSync(staging).filter((n) => n.startsWith('docs-etl-lake-'))).toHaveLength(1);

    const done = await runCli(['export-parquet', '--out', url, '--warehouse', warehouse], env());
    expect(done.code, done.stderr).toBe(0);
    const m = await manifest();
    expect(await checkManifest(m)).toEqual(expected);
    // Objects the manifest replaced stay while an Iceberg snapshot within readGrace names them (docs/lake.md).
    const retained = await icebergRetained();
    expect((await dataKeys()).map((k) => k.slice(PREFIX.length)).filter((k) => !retained.has(k)).sort(), 'every object is named: the killed run\'s uploads are gone')
      .toEqual(m.files.map((e) => e.key).filter((k) => !retained.has(k)).sort());
    expect((await s3.list(PREFIX)).has(`${PREFIX}_docs_etl/lock`), 'lock released').toBe(false);
    expect(readdirSync(staging), 'the killed run\'s staging folder removed, this run\'s too').toEqual([]);

    const listing = await s3.list(PREFIX);
    const again = await runCli(['export-parquet', '--out', url, '--warehouse', warehouse], env());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/: 0 partition\(s\) written, \d+ unchanged, 0 removed; no tables rewritten; 0 rows/);
    expect(await s3.list(PREFIX), 'no object uploaded, replaced or removed').toEqual(listing);
    for (const out of [first, killed, done, again]) expect(out.stdout + out.stderr).not.toContain(S3_SECRET);
  }, 180_000);

  it('a wrong endpoint or missing bucket is one clear line and exit 1, without the secret', async () => {
    const r = await runCli(['export-parquet', '--out', `s3://no-such-bucket/x`, '--warehouse', warehouse], env());
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^docs-etl: error: cannot (read|write|list) s3:\/\/no-such-bucket\/x\/.*NoSuchBucket/);
    expect(r.stderr).not.toContain(S3_SECRET);
  }, 60_000);
});
