// The real CLI (needs `npm run build`) SIGKILLed between its data uploads and its Iceberg commit,
// on an S3 lake (s3rver behind a proxy on 127.0.0.1 that kills the exporter the moment it sends
// its first manifest list, after its data files and first manifest are stored). The previous
// snapshots still read; then a normal export: every table reads through icebird with the
// warehouse's counts, no file is named twice, and the killed run's manifest is gone.
import { icebergManifests } from 'icebird';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import type { TableMetadata } from '../../src/outputs/lake/iceberg/table-metadata.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { readIcebergTable } from '../helpers/iceberg-reader.js';
import { publishForReaders } from '../helpers/publish.js';
import { killLake } from './s3-kill-lake.js';

const PREFIX = 'kill/lake';
const lake = killLake(PREFIX, { days: 4, turnsPerDay: 15 });

async function counts(): Promise<Map<string, number>> {
  const wh = await openWarehouse(lake.warehouse, { readOnly: true });
  try {
    const out = new Map<string, number>();
    for (const t of LAKE_TABLES) out.set(t.name, Number((await wh.conn.runAndReadAll(`SELECT count(*) FROM "${t.name}"`)).getRows()[0]![0]));
    return out;
  } finally {
    wh.close();
  }
}
async function metadata(t: string): Promise<TableMetadata> {
  const v = (await lake.s3.getText(`${PREFIX}/${t}/metadata/version-hint.text`)).trim();
  return JSON.parse(await lake.s3.getText(`${PREFIX}/${t}/metadata/v${v}.metadata.json`)) as TableMetadata;
}
/** Rows of every non-empty table read through icebird (an empty table has no snapshot to read). */
async function readCounts(want: Map<string, number>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const t of LAKE_TABLES) out.set(t.name, want.get(t.name) === 0 ? 0 : (await readIcebergTable(lake.tableUrl(t.name))).length);
  return out;
}

describe('an export SIGKILLed between its data uploads and its Iceberg commit', () => {
  it('leaves the previous snapshots readable; the next export commits, counts equal, no file named twice, no leftover', async () => {
    const url = lake.url;
    const exportNow = async () => {
      const wh = await openWarehouse(lake.warehouse, { readOnly: true });
      try {
        await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: LAKE_TABLES, env: lake.s3.env }, { outDir: url });
      } finally {
        wh.close();
      }
    };
    await exportNow();
    const first = await counts();
    const wh = await openWarehouse(lake.warehouse);
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
    await publishForReaders(lake.warehouse);

    const { result: r, hit } = await lake.exportKilledAt(/\/metadata\/snap-[^/]*\.avro/);
    expect(r.signal, r.stderr).toBe('SIGKILL');
    expect(hit, 'killed at its first manifest list').toMatch(/\/metadata\/snap-/);
    const killedTable = decodeURIComponent(hit!).split('/').slice(-3)[0]!;
    // The data files and the manifest of the killed table were stored; its snapshot was not committed.
    const orphans = [...(await lake.s3.list(`${PREFIX}/${killedTable}/metadata/`)).keys()].filter((k) => k.endsWith('-m0.avro'));
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
      const stored = [...(await lake.s3.list(`${PREFIX}/${t.name}/metadata/`)).keys()].filter((k) => k.endsWith('.avro'));
      for (const k of stored) expect(named.has(`s3://${lake.s3.bucket}/${k}`), `${k} is named by the metadata (leftovers of the killed run removed)`).toBe(true);
    }
  });
});
