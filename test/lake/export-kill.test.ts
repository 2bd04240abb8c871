// The real CLI process, SIGKILLed while it writes the lake (needs `npm run build`; the test command
// builds first): only complete files ever carry a final name, and the next run converges.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { publishForReaders } from '../helpers/publish.js';
import { fillWarehouse, listFiles, readLakeFiles, sortRows, warehouseTable, type Row } from './lake-fixture.js';
import { sleep, waitFor } from '../helpers/wait.js';

const DIST_MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

describe('export-parquet killed midway', () => {
  let tmp: ReturnType<typeof tempDir>;
  let warehouse: string;
  let lake: string;
  /** Warehouse rows per lake file path ("conversations/acme/2026-03-01"), and the small tables. */
  const expected = new Map<string, Row[]>();

  beforeAll(async () => {
    if (!existsSync(DIST_MAIN)) throw new Error('dist/ is missing: run `npm run build` before this test');
    tmp = tempDir('docs-etl-lake-kill-');
    warehouse = join(tmp.dir, 'w.duckdb');
    lake = join(tmp.dir, 'lake');
    const wh = await openWarehouse(warehouse);
    try {
      await fillWarehouse(wh.conn, { days: 25, turnsPerDay: 80 }); // 3 projects x 25 days = 75 partitions a table
      for (const table of ['conversations', 'sources'] as const) {
        for (const r of await warehouseTable(wh.conn, table)) {
          const key = `${table}/${r.project_id}/${new Date(Number(BigInt(r.occurred_at as bigint) / 1000n)).toISOString().slice(0, 10)}`;
          expected.set(key, [...(expected.get(key) ?? []), r]);
        }
      }
      for (const table of ['sync_runs', 'quarantine'] as const) expected.set(table, await warehouseTable(wh.conn, table));
      // The other one-file tables are empty in this fixture: each is one file with no rows.
      for (const table of ['projects', 'coverage', 'static_export_jobs', 'site_pages', 'gap_topic_runs']) expected.set(table, []);
    } finally {
      wh.close();
    }
    await publishForReaders(warehouse);
  }, 60_000);
  afterAll(() => tmp?.cleanup());

  /** Every `*.parquet` under the lake is complete (hyparquet reads it) and is exactly its partition. */
  async function expectOnlyCompleteFiles(): Promise<number> {
    const files = await readLakeFiles(lake);
    const tables = new Set([...expected.keys()].map((k) => k.split('/')[0]!));
    for (const f of files) expect(tables.has(f.rel.split('/')[0]!), f.rel).toBe(true);
    for (const f of files) {
      const table = f.rel.split('/')[0]!;
      const key = f.projectId !== undefined ? `${table}/${f.projectId}/${f.date}` : table;
      expect(sortRows(f.rows), f.rel).toEqual(expected.get(key));
    }
    return files.length;
  }

  const lockPid = (): number | null => {
    try {
      return Number(JSON.parse(readFileSync(join(lake, '_docs_etl', 'lock'), 'utf8')).pid);
    } catch {
      return null;
    }
  };

  it('leaves only complete files at every kill point; the next run removes temp files and equals the warehouse', async () => {
    const env = cliEnv({ LOG_LEVEL: 'warn' });
    let killedMidway = 0;
    // Delays after the child took the lake lock (so after its start-up): early ones hit the first
    // COPYs, later ones hit runs that resume over the files and stale lock a previous kill left.
    // (Each kill point costs a start-up and a read of the whole lake: one per window.)
    for (const delay of [0, 30, 150, 400, 900]) {
      const child = spawnCli(['export-parquet', '--out', lake, '--warehouse', warehouse], env);
      await waitFor(() => lockPid() === child.pid || child.exitCode !== null, 20_000);
      await sleep(delay);
      child.kill('SIGKILL');
      const r = await child.result;
      if (r.signal === 'SIGKILL') killedMidway++;
      else expect(r.code, r.stderr).toBe(0);
      await expectOnlyCompleteFiles();
    }
    expect(killedMidway).toBeGreaterThanOrEqual(1);

    const done = await runCli(['export-parquet', '--out', lake, '--warehouse', warehouse], env);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^lake .*: \d+ partition\(s\) written, \d+ unchanged, 0 removed/);
    expect(listFiles(lake).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(lake, '_docs_etl', 'lock'))).toBe(false);
    expect(await expectOnlyCompleteFiles()).toBe(expected.size); // every partition, nothing missing

    const again = await runCli(['export-parquet', '--out', lake, '--warehouse', warehouse], env);
    expect(again.stdout).toMatch(/: 0 partition\(s\) written, \d+ unchanged, 0 removed; no tables rewritten/);
  }, 120_000);

  it('without a read snapshot: "no read snapshot yet", exit 1, without opening the writer file (held here meanwhile)', async () => {
    const bare = join(tmp.dir, 'bare', 'w.duckdb');
    const wh = await openWarehouse(bare);
    try {
      const r = await runCli(['export-parquet', '--out', join(tmp.dir, 'other-lake'), '--warehouse', bare], cliEnv({}));
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`docs-etl: error: no read snapshot yet: the first sync publishes it (${join(tmp.dir, 'bare', 'read', 'w.duckdb')})\n`);
      expect(existsSync(join(tmp.dir, 'other-lake'))).toBe(false);
    } finally {
      wh.close();
    }
  }, 30_000);
});
