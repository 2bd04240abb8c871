// The read surface (issue 20): read_path is a small catalog over immutable Parquet files. A real
// sandbox over HTTP, real syncs in-process with one injected clock, real DuckDB files read back by
// separate DuckDB instances (as BI tools would).
import { readdirSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig, type SyncConfig } from '../../src/config/sync-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { readSurfaceDir } from '../../src/sync/publish/surface-files.js';
import { WRITER_ONLY_TABLES } from '../../src/sync/publish/writer-only-tables.js';
import { runSync, type SyncResult } from '../../src/sync/run/sync.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { sqlFolder } from '../../src/warehouse/sql-files.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/tmp.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';

const KEY = 'mint_read_surface_test_key';
const HOUR = 3_600_000;
// 5 Nov: September and October are closed months (their last day ended over 3 days ago).
const clock = new FakeClock(Date.parse('2026-11-05T12:00:00Z'), { sleepAdvances: false });
// From 29 Sept: two days of September make it a closed month; more days would only cost a daily
// rollup request per day, project and pipeline.
const FROM = new Date('2026-09-29T00:00:00Z');
/** beta's history: the tests read only its October and November days. */
const BETA_FROM = new Date('2026-10-26T00:00:00Z');
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
let warehouse: string;
let readPath: string;

function config(over: Partial<SyncConfig> = {}): SyncConfig {
  return defaultSyncConfig(warehouse, ['alpha', 'beta'].map((projectId) => ({
    projectId, apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: projectId === 'alpha' ? FROM : BETA_FROM,
  })), { rate: { limit: 100_000, windowMs: HOUR }, maxWaitMs: 60_000, budgetDir: join(tmp.dir, 'budget'), readGraceMs: 24 * HOUR, ...over });
}

async function sync(over: Partial<SyncConfig> = {}): Promise<SyncResult> {
  const r = await runSync({ clock, logger: silentLogger, retry: { attempts: 5, baseMs: 1, maxMs: 5 } }, config(over), PIPELINES);
  expect(r.exitCode).toBe(0);
  return r;
}

/** A reader in its own DuckDB instance, read-only, in UTC. */
async function open(path: string) {
  const inst = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  await conn.run("SET TimeZone = 'UTC'");
  return {
    rows: async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson(),
    close: () => { conn.closeSync(); inst.closeSync(); },
  };
}

/** Tables a run that finds nothing new still changes: its run log and checkpoints, and feedback (re-read, stamped when seen). */
const RUN_LOG = ['coverage', 'feedback', 'gap_topic_runs', 'sync_runs', 'sync_state', 'sync_windows'];

/** The publish's manifest stored in the catalog (src/sync/publish/surface-manifest.ts). */
async function manifestOf(path: string): Promise<{ segments: { date: string; files: { conversations?: string } }[]; tables: { table: string; file: string | null }[] }> {
  const r = await open(path);
  try {
    const [{ manifest }] = await r.rows('SELECT manifest FROM docs_etl.read_surface') as [{ manifest: string }];
    return JSON.parse(manifest);
  } finally {
    r.close();
  }
}

const partsOf = (table: string, project: string) => {
  const dir = join(readSurfaceDir(readPath), table, `project_id=${project}`);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

beforeAll(async () => {
  tmp = tempDir('docs-etl-read-surface-');
  warehouse = join(tmp.dir, 'w.duckdb');
  readPath = join(tmp.dir, 'read', 'w.duckdb');
  sb = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], projects: ['alpha', 'beta'], conversations: 1200, historyDays: 38, seed: 2020, clock,
    live: true, liveTurnsPerMinute: 1, site: { pages: 30, feedbackPerDay: 10, searchesPerDay: 100, viewsPerDay: 500 },
  }));
  await sync();
}, 120_000);
afterAll(async () => {
  await sb?.close();
  tmp?.cleanup();
});

describe('the read catalog', () => {
  it('answers every table and view of the warehouse with the same columns, types and rows', async () => {
    const wh = await open(warehouse);
    const cat = await open(readPath);
    try {
      // The writer's own state tables are not published (writer-only-tables.ts; writer-only-tables.test.ts).
      const tables = (await wh.rows("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY 1")).map((r) => String(r.table_name))
        .filter((t) => !WRITER_ONLY_TABLES.has(t));
      const views = sqlFolder('views').map((v) => /CREATE OR REPLACE VIEW (\w+)/.exec(v.sql)![1]!);
      expect(tables).toEqual(expect.arrayContaining(['conversations', 'sources', 'sync_runs', 'coverage', 'feedback', 'page_views_daily']));
      expect(views.length).toBeGreaterThan(10);
      // conversations and sources are views over Parquet in the catalog; the rest native copies.
      expect((await cat.rows("SELECT view_name FROM duckdb_views() WHERE view_name IN ('conversations', 'sources') ORDER BY 1")).map((r) => r.view_name))
        .toEqual(['conversations', 'sources']);
      let nonEmpty = 0;
      for (const name of [...tables, ...views]) {
        const describe = `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM ${name})`;
        expect(await cat.rows(describe), `${name}: columns`).toEqual(await wh.rows(describe));
        const all = `SELECT * FROM ${name} ORDER BY ALL`;
        const [a, b] = [await wh.rows(all), await cat.rows(all)];
        expect(b, `${name}: rows`).toEqual(a);
        if (a.length) nonEmpty++;
      }
      expect(nonEmpty).toBeGreaterThan(20);
    } finally {
      wh.close();
      cat.close();
    }
  }, 60_000);

  it('docs-etl query reads the catalog\'s Parquet-backed tables, and no file but the parts folder; it cannot write there', async () => {
    const env = cliEnv({ LOG_LEVEL: 'warn' });
    const wh = await open(warehouse);
    const n = (await wh.rows('SELECT count(*) AS n FROM conversations'))[0]!.n;
    wh.close();
    const q = await runCli(['query', '--warehouse', warehouse, '--format', 'json', 'SELECT count(*) AS n FROM conversations'], env);
    expect(q.code, q.stderr).toBe(0);
    expect(JSON.parse(q.stdout)).toEqual([{ n: Number(n) }]); // BIGINTs within 2^53 are JSON numbers
    expect(Number(n)).toBeGreaterThan(0);
    // The refusals in this process: they are the query's, not the process's (a real one answered above).
    const file = join(readSurfaceDir(readPath), 'conversations', 'project_id=alpha', partsOf('conversations', 'alpha')[0]!);
    const copy = await runMain(['query', '--warehouse', warehouse, `COPY (SELECT 1 AS x) TO '${file}' (FORMAT parquet)`], env);
    expect(copy.code).toBe(2);
    expect(copy.stderr).toMatch(/COPY statement is refused/);
    const outside = await runMain(['query', '--warehouse', warehouse, `SELECT * FROM read_parquet('${join(tmp.dir, '*.parquet')}')`], env);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/file system operations are disabled/);
  }, 60_000);

  it('closed months are one file per project and month; the open month one file per day', () => {
    const files = partsOf('conversations', 'alpha');
    const keys = files.map((f) => f.replace(/-[0-9a-f]+\.parquet$/, ''));
    expect(keys.filter((k) => k.length === 7)).toEqual(['2026-09', '2026-10']);
    expect(keys.filter((k) => k.length === 10).every((k) => k.startsWith('2026-11-'))).toBe(true);
    expect(keys.filter((k) => k.length === 10).length).toBeGreaterThanOrEqual(4);
    expect(partsOf('sources', 'beta').some((f) => f.startsWith('2026-10-'))).toBe(true);
  });

  it('a run that changes nothing writes no day segment, and a whole-table file only for the tables it changed; new turns rewrite only their day, and the old catalog stays readable', async () => {
    const first = await manifestOf(readPath);
    const same = await sync();
    const m = await manifestOf(readPath);
    // No day segment is written again; of the whole tables, only those whose rows this run changed
    // (its own run log and checkpoints) get a new file: the others (gap topics, site tables) keep theirs.
    expect(m.segments).toEqual(first.segments);
    const changed = m.tables.filter((t) => first.tables.find((f) => f.table === t.table)?.file !== t.file);
    expect(changed.map((t) => t.table).sort().every((t) => RUN_LOG.includes(t)), JSON.stringify(changed)).toBe(true);
    const kept = m.tables.filter((t) => t.file !== null && !changed.includes(t)).map((t) => t.table);
    // (gap_topic_members, declared by day in the lake, is partitioned: its segments are in m.segments above.)
    for (const t of ['gap_topics', 'projects', 'schema_migrations']) expect(kept).toContain(t);
    expect(same.published?.files).toMatchObject({ written: changed.filter((t) => t.file !== null).length, deleted: 0 });
    const before = partsOf('conversations', 'alpha');

    const held = await open(readPath);
    const count = 'SELECT count(*)::INTEGER AS n FROM conversations';
    const [{ n: heldCount }] = await held.rows(count) as [{ n: number }];
    clock.advance(2 * HOUR);
    const next = await sync();
    const after = partsOf('conversations', 'alpha');
    const written = after.filter((f) => !before.includes(f));
    // Only today's segments (conversations and sources of each project with new turns).
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((f) => f.startsWith('2026-11-05-'))).toBe(true);
    const nextSegments = (await manifestOf(readPath)).segments.filter((e) => !m.segments.some((o) => o.files.conversations === e.files.conversations));
    expect(nextSegments.length).toBeLessThanOrEqual(2);
    expect(nextSegments.every((e) => e.date === '2026-11-05')).toBe(true);
    // The old version of the day is kept for the grace period: the held catalog is unchanged.
    expect(before.every((f) => after.includes(f))).toBe(true);
    expect(await held.rows(count)).toEqual([{ n: heldCount }]);
    const fresh = await open(readPath);
    const [{ n: newCount }] = await fresh.rows(count) as [{ n: number }];
    expect(newCount).toBeGreaterThan(heldCount);
    // What the incremental publish recomputed (only the days the run touched) equals the warehouse.
    const wh = await open(warehouse);
    for (const t of ['conversations', 'sources']) {
      expect(await fresh.rows(`SELECT * FROM ${t} ORDER BY ALL`), t).toEqual(await wh.rows(`SELECT * FROM ${t} ORDER BY ALL`));
    }
    wh.close();
    fresh.close();

    // After the grace period the retired files are deleted; a reader still holding the old catalog
    // gets an error, never other rows.
    clock.advance(25 * HOUR);
    const late = await sync();
    expect(late.published!.files!.deleted).toBeGreaterThanOrEqual(next.published!.files!.written);
    const gone = before.filter((f) => !partsOf('conversations', 'alpha').includes(f));
    expect(gone.length).toBeGreaterThan(0);
    await expect(held.rows(count)).rejects.toThrow();
    held.close();
  }, 120_000);

  it('files no published catalog names (an interrupted publish) are deleted by the next publish', async () => {
    const stray = join(readSurfaceDir(readPath), 'conversations', 'project_id=alpha', '2026-11-01-deadbeef00.parquet');
    mkdirSync(join(stray, '..'), { recursive: true });
    writeFileSync(stray, 'not parquet');
    await sync();
    expect(existsSync(stray)).toBe(false);
  }, 60_000);

  it('readSurface copy publishes the whole warehouse file with native tables', async () => {
    const r = await sync({ readSurface: 'copy' });
    expect(r.published?.files).toBeUndefined();
    const cat = await open(readPath);
    try {
      expect(await cat.rows("SELECT table_name FROM duckdb_tables() WHERE table_name = 'conversations'")).toEqual([{ table_name: 'conversations' }]);
    } finally {
      cat.close();
    }
    // Back to the catalog: its state is gone with the copy, so every segment is written again.
    const back = await sync();
    expect(back.published!.files!.written).toBeGreaterThan(10);
  }, 60_000);

  it('a bad --read-surface, or a readGrace without a unit in the config, is one line and exit 2', async () => {
    // In this process: the refusal is the sync command's parsing (a real process's exit 2: test/sync/cli.test.ts).
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'alpha', LOG_LEVEL: 'warn' });
    const flag = await runMain(['sync', '--warehouse', join(tmp.dir, 'bad', 'w.duckdb'), '--read-surface', 'mirror'], env);
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim().split('\n')).toHaveLength(1);
    expect(flag.stderr).toMatch(/--read-surface.*mirror/);
    const file = join(tmp.dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ warehouse: join(tmp.dir, 'bad', 'w.duckdb'), readGrace: '5', projects: [{ id: 'alpha', apiKeyEnv: 'DOCS_API_KEY' }] }));
    const cfg = await runMain(['sync', '--config', file], env);
    expect(cfg.code).toBe(2);
    expect(cfg.stderr.trim().split('\n')).toHaveLength(1);
    expect(cfg.stderr).toMatch(/readGrace/);
    expect(existsSync(join(tmp.dir, 'bad', 'w.duckdb'))).toBe(false);
  }, 60_000);
});
