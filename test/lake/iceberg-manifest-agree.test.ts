// One truth for readers (issue 35 item 2): `_docs_etl/manifest.json` is the exporter's state, the
// Iceberg metadata is the commit point. The real CLI (needs `npm run build`) is SIGKILLed after it
// stored the new manifest and before any table's Iceberg commit (s3rver behind a proxy on
// 127.0.0.1 that kills it at its first metadata upload): the two then disagree, and the Iceberg side
// still reads the previous export. The next export (no warehouse change, so no data file to write)
// must bring every table's current snapshot to exactly the manifest's files; a further export with
// nothing new keeps them equal and adds no snapshot.
import { icebergManifests } from 'icebird';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { LAKE_TABLES } from '../../src/cli/lake-tables.js';
import { exportLake } from '../../src/outputs/lake/export-lake.js';
import type { TableMetadata } from '../../src/outputs/lake/iceberg/table-metadata.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { publishForReaders } from '../helpers/publish.js';
import { killLake } from './s3-kill-lake.js';

const PREFIX = 'agree/lake';
const lake = killLake(PREFIX, { days: 3, turnsPerDay: 10 });

const url = () => lake.url;
async function exportNow(): Promise<void> {
  const wh = await openWarehouse(lake.warehouse, { readOnly: true });
  try {
    await exportLake({ conn: wh.conn, logger: silentLogger, clock: systemClock, tables: LAKE_TABLES, env: lake.s3.env }, { outDir: url() });
  } finally {
    wh.close();
  }
}
async function metadata(t: string): Promise<TableMetadata | null> {
  const keys = await lake.s3.list(`${PREFIX}/${t}/metadata/version-hint.text`);
  if (!keys.size) return null;
  const v = (await lake.s3.getText(`${PREFIX}/${t}/metadata/version-hint.text`)).trim();
  return JSON.parse(await lake.s3.getText(`${PREFIX}/${t}/metadata/v${v}.metadata.json`)) as TableMetadata;
}
/** Per table: the data keys (lake-relative) of its current snapshot, and those the manifest names. */
async function bothLists(): Promise<{ iceberg: Record<string, string[]>; manifest: Record<string, string[]>; snapshots: number }> {
  const base = `s3://${lake.s3.bucket}/${PREFIX}/`;
  const manifest = JSON.parse(await lake.s3.getText(`${PREFIX}/_docs_etl/manifest.json`)) as { files: { table: string; key: string; rows: number }[] };
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

    const wh = await openWarehouse(lake.warehouse);
    try {
      await wh.conn.run(`UPDATE conversations SET query = 'changed' WHERE project_id = 'acme' AND id = 'conv-1-2'`);
      await wh.conn.run(`DELETE FROM sources WHERE project_id = 'beta' AND occurred_at::DATE = DATE '2026-03-02'`);
    } finally {
      wh.close();
    }
    await publishForReaders(lake.warehouse);
    // The first upload under any table's metadata/ folder comes after the new manifest is stored.
    const { result: r } = await lake.exportKilledAt(/\/[a-z_]+\/metadata\//);
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
