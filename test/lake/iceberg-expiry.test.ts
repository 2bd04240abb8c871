// Snapshots expire with the read grace period: a snapshot replaced less than readGrace ago keeps
// reading (its files stay, on a local disk as pinned links beside the replaced part-0.parquet, on
// S3 as the replaced objects); once it is older, the next export drops it and removes what only it
// named, under the table's own folder and nothing else.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import type { TableMetadata } from '../../src/outputs/lake/iceberg/table-metadata.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { tempDir } from '../helpers/tmp.js';
import { fileStamps, fillWarehouse } from './lake-fixture.js';
import { icebergManifests } from 'icebird';
import { localLakeBase, routeFetch, serveFolder } from '../helpers/iceberg-reader.js';

const TABLES = LAKE_TABLES.filter((t) => ['conversations', 'sources', 'sync_runs', 'quarantine'].includes(t.name));
const HOUR = 3_600_000;
const GRACE = 24 * HOUR;
let tmp: ReturnType<typeof tempDir>;
let wh: Warehouse;
let s3: TestS3;

beforeAll(async () => {
  tmp = tempDir('docs-etl-ice-expiry-');
  wh = await openWarehouse(join(tmp.dir, 'w.duckdb'));
  await fillWarehouse(wh.conn, { days: 3, turnsPerDay: 10 });
  s3 = await startS3(join(tmp.dir, 's3'));
});
afterAll(async () => {
  await s3?.close();
  wh?.close();
  tmp?.cleanup();
});

/** Changes one conversations day (acme, 2026-03-01): each export replaces that one file. */
const touch = (n: number) => wh.conn.run(`UPDATE conversations SET query = 'edit ${n}' WHERE project_id = 'acme' AND id = 'conv-0-1'`);

describe.each(['local', 's3'] as const)('snapshot expiry (%s)', (kind) => {
  it('keeps replaced snapshots readable for readGrace, then removes them and only what they named', async () => {
    const clock = new FakeClock(Date.parse('2026-06-01T00:00:00Z'));
    const local = join(tmp.dir, `lake-${kind}`);
    const out = kind === 'local' ? local : `s3://${s3.bucket}/${kind}`;
    const env = kind === 's3' ? s3.env : {};
    const run = () => exportLake({ conn: wh.conn, logger: silentLogger, clock, tables: TABLES, env, readGraceMs: GRACE }, { outDir: out });
    const text = async (key: string) => (kind === 'local' ? readFileSync(join(local, ...key.split('/')), 'utf8') : s3.getText(`${kind}/${key}`));
    const exists = async (uri: string) => (kind === 'local' ? existsSync(fileURLToPath(uri)) : (await s3.list(uri.slice(`s3://${s3.bucket}/`.length))).size === 1);
    const metadata = async (): Promise<TableMetadata> => {
      const v = (await text('conversations/metadata/version-hint.text')).trim();
      return JSON.parse(await text(`conversations/metadata/v${v}.metadata.json`)) as TableMetadata;
    };
    await run();
    const first = await metadata();
    const firstFiles = await liveFiles(first, kind, local);
    expect(firstFiles.length).toBeGreaterThan(3);
    for (const n of [1, 2]) {
      clock.advance(HOUR);
      await touch(n);
      await run();
    }
    const third = await metadata();
    expect(third.snapshots.length).toBe(3);
    // Within the grace period every snapshot's files are there.
    for (const f of firstFiles) expect(await exists(f), f).toBe(true);

    const otherTables = kind === 'local' ? new Map([...fileStamps(local)].filter(([k]) => !k.startsWith('conversations/') && !k.startsWith('_docs_etl/'))) : null;
    clock.advance(GRACE);
    await touch(3);
    await run();
    const last = await metadata();
    // Snapshots 1 and 2 were replaced more than readGrace ago; 3 was replaced just now and stays.
    expect(last.snapshots.map((s) => s['snapshot-id'])).toEqual([third.snapshots[2]!['snapshot-id'], last['current-snapshot-id']]);
    expect(last['metadata-log'].map((e) => e['metadata-file'].split('/').at(-1))).toEqual(['v3.metadata.json']);
    const kept = new Set([...(await liveFiles(last, kind, local)), ...(await liveFiles({ ...last, 'current-snapshot-id': third['current-snapshot-id'] }, kind, local))]);
    const replacedFirst = firstFiles.filter((f) => !kept.has(f));
    expect(replacedFirst.length, 'the first snapshot had a file no retained snapshot names').toBe(1);
    for (const f of replacedFirst) expect(await exists(f), `${f} removed`).toBe(false);
    for (const f of kept) expect(await exists(f), `${f} kept`).toBe(true);
    expect(await exists(first.snapshots[0]!['manifest-list']), 'expired manifest list removed').toBe(false);
    expect(await exists(third.snapshots[2]!['manifest-list']), 'retained manifest list kept').toBe(true);
    if (otherTables) expect(new Map([...fileStamps(local)].filter(([k]) => otherTables.has(k)))).toEqual(otherTables);
  });
});

/** The data files a snapshot (the metadata's current one) holds, read with icebird's manifest reader. */
async function liveFiles(m: TableMetadata, kind: 'local' | 's3', local: string): Promise<string[]> {
  const http = kind === 'local' ? await serveFolder(local) : null;
  const restore = routeFetch(http
    ? [{ from: localLakeBase(local), to: `${http.url}/` }]
    : [{ from: `https://${s3.bucket}.s3.amazonaws.com/`, to: `${s3.endpoint}/${s3.bucket}/`, rawKeys: true }]);
  try {
    const lists = await icebergManifests(m as never);
    return lists.flatMap((l) => l.entries).filter((e) => e.status !== 2).map((e) => e.data_file.file_path);
  } finally {
    restore();
    await http?.close();
  }
}
