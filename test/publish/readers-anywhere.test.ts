// Readers anywhere (issue 34 item 1) and a grace period whatever the reader does (issue 33 item 5).
// The warehouse path is RELATIVE, as in the README's quick start (state/warehouse.duckdb), and the
// syncs run in the state folder's parent; every reader is a separate process started in another
// directory: `docs-etl query`, a plain DuckDB ATTACH by absolute path, a BI tool holding the
// catalog read-write. Real sandbox over HTTP, real DuckDB files.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import { defaultSyncConfig, type SyncConfig } from '../../src/config/sync-config.js';
import type { Logger } from '../../src/core/logger.js';
import { silentLogger } from '../../src/core/logger.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { sqlFolder } from '../../src/warehouse/sql-files.js';
import { runSync } from '../../src/sync/run/sync.js';
import { WRITER_ONLY_TABLES } from '../../src/sync/publish/writer-only-tables.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { BIN, cliEnv } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { holdDuckDb } from '../helpers/holder.js';
import { capturingLogger } from '../helpers/log-lines.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_readers_anywhere_key';
const HOUR = 3_600_000;
const clock = new FakeClock(Date.parse('2026-11-05T12:00:00Z'), { sleepAdvances: false });
/** Views whose rows depend on now() (coverage_days ends today's day at now): compared by row count. */
const NOW_DEPENDENT = new Set(['coverage_days']);
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
let elsewhere: string;
let names: string[];
const WAREHOUSE = 'state/warehouse.duckdb';
const abs = (rel: string) => join(tmp.dir, rel);

async function sync(over: Partial<SyncConfig> = {}, logger: Logger = silentLogger): Promise<void> {
  const cwd = process.cwd();
  process.chdir(tmp.dir);
  try {
    const cfg = defaultSyncConfig(WAREHOUSE, ['alpha', 'beta'].map((projectId) => ({
      projectId, apiKey: KEY, keySource: 'DOCS_API_KEY', baseUrl: sb.url, organization: keyFingerprint(KEY), backfillFrom: new Date('2026-10-30T00:00:00Z'),
    })), { rate: { limit: 100_000, windowMs: HOUR }, maxWaitMs: 60_000, budgetDir: abs('budget'), readGraceMs: 24 * HOUR, ...over });
    const r = await runSync({ clock, logger, retry: { attempts: 5, baseMs: 1, maxMs: 5 } }, cfg, PIPELINES);
    expect(r.exitCode).toBe(0);
  } finally {
    process.chdir(cwd);
  }
}

/** The CLI as a child process started in `cwd`: exit code and output. */
function cliIn(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

/** One row per table or view: its row count and a digest of its rows (in one order). */
function digestSql(prefix: string): string {
  return names.map((n) => {
    const rows = NOW_DEPENDENT.has(n) ? "''" : "coalesce(md5(string_agg(r__::VARCHAR, chr(10) ORDER BY r__::VARCHAR)), '')";
    return `SELECT '${n}' AS name, count(*)::INTEGER AS n, ${rows} AS h FROM ${prefix}${n} r__`;
  }).join(' UNION ALL ') + ' ORDER BY name';
}

/** The writer's own answer: the warehouse itself, opened read-only in this process, in UTC. */
async function writerDigest(): Promise<unknown[]> {
  const inst = await DuckDBInstance.create(abs(WAREHOUSE), { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    await conn.run("SET TimeZone = 'UTC'");
    return (await conn.runAndReadAll(digestSql(''))).getRowObjectsJson();
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

beforeAll(async () => {
  tmp = tempDir('docs-etl-readers-anywhere-');
  elsewhere = join(tmp.dir, 'elsewhere');
  mkdirSync(elsewhere);
  sb = await startSandbox(defaultSandboxOptions({
    apiKeys: [KEY], projects: ['alpha', 'beta'], conversations: 600, historyDays: 8, seed: 3434, clock,
    live: true, liveTurnsPerMinute: 1, site: { pages: 20, feedbackPerDay: 5, searchesPerDay: 50, viewsPerDay: 200 },
  }));
  await sync();
  const inst = await DuckDBInstance.create(abs(WAREHOUSE), { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  const tables = (await conn.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY 1")).getRows().map((r) => String(r[0]))
    .filter((t) => !WRITER_ONLY_TABLES.has(t));
  conn.closeSync();
  inst.closeSync();
  names = [...tables, ...sqlFolder('views').map((v) => /CREATE OR REPLACE VIEW (\w+)/.exec(v.sql)![1]!)];
}, 120_000);
afterAll(async () => {
  await sb?.close();
  tmp?.cleanup();
});

describe('a reader started in another directory', () => {
  it('docs-etl query reads every table and view with the writer\'s rows; export-parquet runs', async () => {
    const want = await writerDigest();
    expect(want.length).toBeGreaterThan(30);
    expect(want.filter((r) => (r as { n: number }).n > 0).length).toBeGreaterThan(15);
    const run = promisify(execFile);
    const env = cliEnv({ LOG_LEVEL: 'warn' });
    const q = await run(process.execPath, [BIN, 'query', '--warehouse', abs(WAREHOUSE), '--format', 'json', digestSql('')], { cwd: elsewhere, env, maxBuffer: 1 << 24 });
    expect(JSON.parse(q.stdout)).toEqual(want);
    const e = await run(process.execPath, [BIN, 'export-parquet', '--warehouse', abs(WAREHOUSE), '--out', join(elsewhere, 'lake')], { cwd: elsewhere, env });
    expect(e.stderr).not.toMatch(/No files found/);
    expect(existsSync(join(elsewhere, 'lake', 'conversations'))).toBe(true);
  }, 120_000);

  it('a plain DuckDB ATTACH of the read path by its absolute path reads every view with the writer\'s rows', async () => {
    const want = await writerDigest();
    const h = await holdDuckDb(':memory:', 'rw', elsewhere);
    try {
      await h.query("SET TimeZone = 'UTC'");
      await h.query(`ATTACH '${abs('state/read/warehouse.duckdb')}' AS bi (READ_ONLY)`);
      expect(await h.query(digestSql('bi.'))).toEqual(want);
    } finally {
      await h.close();
    }
  }, 60_000);
});

describe('the portable form: a copy of the state folder at another path', () => {
  it('the copy surface is self-contained: the copied folder reads the writer\'s rows with the original moved away', async () => {
    await sync({ readSurface: 'copy', readPath: 'state/bi/warehouse.duckdb' });
    const want = await writerDigest();
    const mount = join(tmp.dir, 'other-mount');
    cpSync(abs('state'), join(mount, 'state'), { recursive: true });
    renameSync(abs('state'), abs('state-away'));
    try {
      const h = await holdDuckDb(join(mount, 'state', 'bi', 'warehouse.duckdb'), 'ro', elsewhere);
      try {
        await h.query("SET TimeZone = 'UTC'");
        expect(await h.query(digestSql(''))).toEqual(want);
      } finally {
        await h.close();
      }
    } finally {
      renameSync(abs('state-away'), abs('state'));
    }
  }, 120_000);
});

describe('doctor', () => {
  it('opens the snapshot from another directory and says what a BI host must mount; a catalog copied elsewhere is named', async () => {
    const env = cliEnv({ LOG_LEVEL: 'warn' });
    const line = (out: string) => out.split('\n').find((l) => l.includes('read-snapshot')) ?? out;
    const here = await cliIn(elsewhere, ['doctor', '--warehouse', abs(WAREHOUSE)], env);
    expect(line(here.stdout), here.stderr).toContain(`✓ read-snapshot ${abs('state/read/warehouse.duckdb')}: opens from another directory`);
    expect(line(here.stdout)).toContain(`a BI host must mount ${abs('state/read')} `);
    // A copy of the catalog at another path still names the writer's files: a warning while they
    // are there, a failure once they are not (the documented rule: use the copy surface for that).
    const copied = join(tmp.dir, 'copied-read');
    cpSync(abs('state/read'), copied, { recursive: true });
    const copyEnv = { ...env, DOCS_ETL_READ_PATH: join(copied, 'warehouse.duckdb') };
    expect(line((await cliIn(elsewhere, ['doctor', '--warehouse', abs(WAREHOUSE)], copyEnv)).stdout)).toMatch(/^! read-snapshot .* name files outside /);
    renameSync(abs('state/read'), abs('read-away'));
    try {
      expect(line((await cliIn(elsewhere, ['doctor', '--warehouse', abs(WAREHOUSE)], copyEnv)).stdout)).toMatch(/^✗ read-snapshot .*No files found.*use readSurface copy/);
    } finally {
      renameSync(abs('read-away'), abs('state/read'));
    }
  }, 120_000);
});

describe('the grace period holds whatever the reader does (issue 33 item 5)', () => {
  it('a reader holding the catalog read-write keeps its snapshot through three publishes; the publish names it', async () => {
    const catalog = abs('state/read/warehouse.duckdb');
    const probe = digestSql('');
    const h = await holdDuckDb(catalog, 'rw', elsewhere);
    try {
      await h.query("SET TimeZone = 'UTC'");
      const held = await h.query(probe);
      for (let i = 1; i <= 3; i++) {
        clock.advance(HOUR);
        const log = capturingLogger();
        await sync({}, log.logger);
        if (i === 1) {
          expect(log.lines.map((l) => String(l.msg)).join('\n')).toMatch(new RegExp(`held open read-write by another program \\(PID ${h.pid}`));
        }
        expect(await h.query(probe), `after publish ${i}`).toEqual(held);
      }
      // Not vacuous: the newest catalog has other rows, so the holder's files were retired, not current.
      const fresh = await holdDuckDb(catalog, 'ro', elsewhere);
      try {
        await fresh.query("SET TimeZone = 'UTC'");
        expect(await fresh.query(probe)).not.toEqual(held);
      } finally {
        await fresh.close();
      }
    } finally {
      await h.close();
    }
  }, 180_000);

  it('a killed publish\'s temporaries of ours are swept; a foreign file with a like name is not', async () => {
    const dir = abs('state/read');
    const ours = ['.warehouse.duckdb.0123456789.tmp', '.warehouse.duckdb.0123456789.tmp.wal', '.warehouse.duckdb.0123456789ab.tmp'];
    const foreign = ['.warehouse.duckdb.notes.tmp', '.warehouse.duckdb.0123456789.tmp.bak', 'my-notes.txt'];
    for (const f of [...ours, ...foreign]) writeFileSync(join(dir, f), 'x');
    clock.advance(HOUR);
    await sync();
    const left = readdirSync(dir);
    for (const f of ours) expect(left, f).not.toContain(f);
    for (const f of foreign) expect(left, f).toContain(f);
  }, 120_000);
});
