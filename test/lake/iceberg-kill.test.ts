// The real CLI (needs `npm run build`) SIGKILLed between its data uploads and its Iceberg commit,
// on an S3 lake (s3rver behind a proxy on 127.0.0.1 that kills the exporter the moment it sends
// its first manifest list, after its data files and first manifest are stored). The previous
// snapshots still read; then a normal export: every table reads through icebird with the
// warehouse's counts, no file is named twice, and the killed run's manifest is gone.
import type { ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { icebergManifests } from 'icebird';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { LAKE_TABLES } from '../../pipelines/lake-tables.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import type { TableMetadata } from '../../src/outputs/lake/iceberg/table-metadata.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { cliEnv, spawnCli } from '../helpers/cli.js';
import { readIcebergTable, routeFetch } from '../helpers/iceberg-reader.js';
import { publishForReaders } from '../helpers/publish.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';
import { fillWarehouse } from './lake-fixture.js';

const DIST_MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const PREFIX = 'kill/lake';
let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
let s3: TestS3;
let proxy: Server;
let proxyUrl: string;
/** Set while a child runs: the first PUT whose path matches `trigger` kills it and is never stored. */
let armed: { child: ChildProcess; trigger: RegExp; hit: string | null } | null = null;
let restoreFetch: () => void;

beforeAll(async () => {
  if (!existsSync(DIST_MAIN)) throw new Error('dist/ is missing: run `npm run build` before this test');
  tmp = tempDir('docs-etl-ice-kill-');
  warehouse = join(tmp.dir, 'w.duckdb');
  const wh = await openWarehouse(warehouse);
  try {
    await fillWarehouse(wh.conn, { days: 4, turnsPerDay: 15 });
  } finally {
    wh.close();
  }
  s3 = await startS3(join(tmp.dir, 's3'));
  const target = new URL(s3.endpoint);
  proxy = createServer((req, res) => {
    if (armed && !armed.hit && req.method === 'PUT' && armed.trigger.test(decodeURIComponent(req.url ?? ''))) {
      armed.hit = req.url ?? '';
      armed.child.kill('SIGKILL');
      req.socket.destroy();
      return;
    }
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  restoreFetch = routeFetch([{ from: `https://${s3.bucket}.s3.amazonaws.com/`, to: `${s3.endpoint}/${s3.bucket}/`, rawKeys: true }]);
}, 60_000);

afterAll(async () => {
  restoreFetch?.();
  await new Promise((r) => proxy?.close(r));
  await s3?.close();
  tmp?.cleanup();
});

const tableUrl = (t: string) => `https://${s3.bucket}.s3.amazonaws.com/${PREFIX}/${t}`;
async function counts(): Promise<Map<string, number>> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    const out = new Map<string, number>();
    for (const t of LAKE_TABLES) out.set(t.name, Number((await wh.conn.runAndReadAll(`SELECT count(*) FROM "${t.name}"`)).getRows()[0]![0]));
    return out;
  } finally {
    wh.close();
  }
}
async function metadata(t: string): Promise<TableMetadata> {
  const v = (await s3.getText(`${PREFIX}/${t}/metadata/version-hint.text`)).trim();
  return JSON.parse(await s3.getText(`${PREFIX}/${t}/metadata/v${v}.metadata.json`)) as TableMetadata;
}
/** Rows of every non-empty table read through icebird (an empty table has no snapshot to read). */
async function readCounts(want: Map<string, number>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const t of LAKE_TABLES) out.set(t.name, want.get(t.name) === 0 ? 0 : (await readIcebergTable(tableUrl(t.name))).length);
  return out;
}

describe('an export SIGKILLed between its data uploads and its Iceberg commit', () => {
  it('leaves the previous snapshots readable; the next export commits, counts equal, no file named twice, no leftover', async () => {
    const url = `s3://${s3.bucket}/${PREFIX}`;
    const exportNow = async () => {
      const wh = await openWarehouse(warehouse, { readOnly: true });
      try {
        await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: LAKE_TABLES, env: s3.env }, { outDir: url });
      } finally {
        wh.close();
      }
    };
    await exportNow();
    const first = await counts();
    const wh = await openWarehouse(warehouse);
    try {
      await wh.conn.run(`UPDATE conversations SET query = 'changed' WHERE project_id = 'acme' AND id = 'conv-1-2'`);
      await wh.conn.run(`DELETE FROM sources WHERE project_id = 'beta' AND occurred_at::DATE = DATE '2026-03-02'`);
      await wh.conn.run(`INSERT INTO conversations SELECT project_id, id || '-new', occurred_at + INTERVAL 30 DAY, query, response, response_type, resolution_status,
        query_category, page_url, page_path, extra, first_seen_at, last_seen_at, updated_at, content_hash FROM conversations WHERE project_id = 'beta' LIMIT 4`);
    } finally {
      wh.close();
    }
    const before = await counts();
    expect(before).not.toEqual(first);
    await publishForReaders(warehouse);

    const child = spawnCli(['export-parquet', '--out', url, '--warehouse', warehouse],
      cliEnv({ LOG_LEVEL: 'warn', AWS_ENDPOINT_URL_S3: proxyUrl, AWS_ACCESS_KEY_ID: s3.env.AWS_ACCESS_KEY_ID!, AWS_SECRET_ACCESS_KEY: s3.env.AWS_SECRET_ACCESS_KEY!, AWS_REGION: 'us-east-1' }));
    armed = { child, trigger: /\/metadata\/snap-[^/]*\.avro/, hit: null };
    const r = await child.result;
    const hit = armed.hit;
    armed = null;
    expect(r.signal, r.stderr).toBe('SIGKILL');
    expect(hit, 'killed at its first manifest list').toMatch(/\/metadata\/snap-/);
    const killedTable = decodeURIComponent(hit!).split('/').slice(-3)[0]!;
    // The data files and the manifest of the killed table were stored; its snapshot was not committed.
    const orphans = [...(await s3.list(`${PREFIX}/${killedTable}/metadata/`)).keys()].filter((k) => k.endsWith('-m0.avro'));
    const committed = (await metadata(killedTable)).snapshots.map((s) => s['manifest-list']);
    expect(orphans.length, 'the killed run stored a manifest no snapshot names').toBeGreaterThan(committed.length);
    expect(Object.fromEntries(await readCounts(before)), 'the previous snapshots still read').toEqual(Object.fromEntries(first));

    await exportNow();
    expect(Object.fromEntries(await readCounts(before))).toEqual(Object.fromEntries(before));
    for (const t of LAKE_TABLES) {
      if (before.get(t.name) === 0) continue;
      const m = await metadata(t.name);
      const paths = (await icebergManifests(m as never)).flatMap((x) => x.entries).filter((e) => e.status !== 2).map((e) => e.data_file.file_path);
      expect(new Set(paths).size, `${t.name}: no file named twice`).toBe(paths.length);
      const named = new Set([...m.snapshots.map((s) => s['manifest-list']), ...m['metadata-log'].map((e) => e['metadata-file'])]);
      for (const s of m.snapshots) for (const mf of (await icebergManifests({ ...m, 'current-snapshot-id': s['snapshot-id'] } as never))) named.add(mf.url);
      const stored = [...(await s3.list(`${PREFIX}/${t.name}/metadata/`)).keys()].filter((k) => k.endsWith('.avro'));
      for (const k of stored) expect(named.has(`s3://${s3.bucket}/${k}`), `${k} is named by the metadata (leftovers of the killed run removed)`).toBe(true);
    }
  });
});
