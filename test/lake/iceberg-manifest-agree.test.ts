// One truth for readers (issue 35 item 2): `_docs_etl/manifest.json` is the exporter's state, the
// Iceberg metadata is the commit point. The real CLI (needs `npm run build`) is SIGKILLed after it
// stored the new manifest and before any table's Iceberg commit (s3rver behind a proxy on
// 127.0.0.1 that kills it at its first metadata upload): the two then disagree, and the Iceberg side
// still reads the previous export. The next export (no warehouse change, so no data file to write)
// must bring every table's current snapshot to exactly the manifest's files; a further export with
// nothing new keeps them equal and adds no snapshot.
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
import { routeFetch } from '../helpers/iceberg-reader.js';
import { publishForReaders } from '../helpers/publish.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';
import { fillWarehouse } from './lake-fixture.js';

const DIST_MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const PREFIX = 'agree/lake';
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
  tmp = tempDir('docs-etl-ice-agree-');
  warehouse = join(tmp.dir, 'w.duckdb');
  const wh = await openWarehouse(warehouse);
  try {
    await fillWarehouse(wh.conn, { days: 3, turnsPerDay: 10 });
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

const url = () => `s3://${s3.bucket}/${PREFIX}`;
async function exportNow(): Promise<void> {
  const wh = await openWarehouse(warehouse, { readOnly: true });
  try {
    await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: LAKE_TABLES, env: s3.env }, { outDir: url() });
  } finally {
    wh.close();
  }
}
async function metadata(t: string): Promise<TableMetadata | null> {
  const keys = await s3.list(`${PREFIX}/${t}/metadata/version-hint.text`);
  if (!keys.size) return null;
  const v = (await s3.getText(`${PREFIX}/${t}/metadata/version-hint.text`)).trim();
  return JSON.parse(await s3.getText(`${PREFIX}/${t}/metadata/v${v}.metadata.json`)) as TableMetadata;
}
/** Per table: the data keys (lake-relative) of its current snapshot, and those the manifest names. */
async function bothLists(): Promise<{ iceberg: Record<string, string[]>; manifest: Record<string, string[]>; snapshots: number }> {
  const base = `s3://${s3.bucket}/${PREFIX}/`;
  const manifest = JSON.parse(await s3.getText(`${PREFIX}/_docs_etl/manifest.json`)) as { files: { table: string; key: string; rows: number }[] };
  const out = { iceberg: {} as Record<string, string[]>, manifest: {} as Record<string, string[]>, snapshots: 0 };
  for (const t of LAKE_TABLES) {
    // A table whose one file is empty is compared by its snapshot's summary (icebird reads no empty manifest list).
    const files = manifest.files.filter((f) => f.table === t.name);
    const m = await metadata(t.name);
    out.snapshots += m?.snapshots.length ?? 0;
    if (files.every((f) => f.rows === 0)) {
      const current = m?.snapshots.find((s) => s['snapshot-id'] === m['current-snapshot-id']);
      out.manifest[t.name] = ['empty'];
      out.iceberg[t.name] = [current === undefined || current.summary['total-records'] === '0' ? 'empty' : 'rows'];
      continue;
    }
    out.manifest[t.name] = files.map((f) => f.key).sort();
    const live = (await icebergManifests(m as never)).flatMap((x) => x.entries).filter((e) => e.status !== 2).map((e) => e.data_file.file_path);
    out.iceberg[t.name] = live.map((p) => p.slice(base.length)).sort();
  }
  return out;
}

describe('the lake manifest and the Iceberg metadata', () => {
  it('a kill between the two is repaired by the next export: after every completed export each table\'s snapshot is the manifest\'s files', async () => {
    await exportNow();
    const first = await bothLists();
    expect(first.iceberg).toEqual(first.manifest);

    const wh = await openWarehouse(warehouse);
    try {
      await wh.conn.run(`UPDATE conversations SET query = 'changed' WHERE project_id = 'acme' AND id = 'conv-1-2'`);
      await wh.conn.run(`DELETE FROM sources WHERE project_id = 'beta' AND occurred_at::DATE = DATE '2026-03-02'`);
    } finally {
      wh.close();
    }
    await publishForReaders(warehouse);
    const child = spawnCli(['export-parquet', '--out', url(), '--warehouse', warehouse],
      cliEnv({ LOG_LEVEL: 'warn', AWS_ENDPOINT_URL_S3: proxyUrl, AWS_ACCESS_KEY_ID: s3.env.AWS_ACCESS_KEY_ID!, AWS_SECRET_ACCESS_KEY: s3.env.AWS_SECRET_ACCESS_KEY!, AWS_REGION: 'us-east-1' }));
    // The first upload under any table's metadata/ folder comes after the new manifest is stored.
    armed = { child, trigger: /\/[a-z_]+\/metadata\//, hit: null };
    const r = await child.result;
    armed = null;
    expect(r.signal, r.stderr).toBe('SIGKILL');
    const killed = await bothLists();
    expect(killed.manifest, 'the killed run stored its manifest').not.toEqual(first.manifest);
    expect(killed.iceberg, 'readers of the Iceberg tables still see the previous export').toEqual(first.iceberg);

    await exportNow();
    const repaired = await bothLists();
    expect(repaired.manifest, 'nothing changed since the killed run: its manifest stays').toEqual(killed.manifest);
    expect(repaired.iceberg, 'every table\'s snapshot is the manifest\'s files again').toEqual(repaired.manifest);
    expect(repaired.snapshots).toBeGreaterThan(first.snapshots);

    await exportNow();
    const again = await bothLists();
    expect(again).toEqual(repaired);
  }, 180_000);
});
