// Readers never block the sync (issue 11): BI tools and notebooks open the published read snapshot;
// a reader holding it open is never disturbed and never blocks a run; re-opening shows the new data,
// and no reader ever sees half a run. Real processes, real HTTP, real DuckDB files. Each test has its
// own warehouse: a copy of one synced once in-process (synced-base.ts), with its own read snapshot.
import { existsSync, mkdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { holdDuckDb } from '../helpers/holder.js';
import { publishForReaders } from '../helpers/publish.js';
import { smallSandboxOptions } from '../helpers/small-sandbox.js';
import { copyBase, syncBase } from '../helpers/synced-base.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_readers_test_key_01';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
/** demo and other synced (third never): tests copy it (copyBase). */
let base: string;
beforeAll(async () => {
  tmp = tempDir();
  // A small history (small-sandbox.ts): the CLI syncs below read every pipeline, and what they
  // assert is whole runs and who holds what, not volume.
  sb = await startSandbox(smallSandboxOptions({ apiKeys: [KEY], conversations: 800, seed: 5, projects: ['demo', 'other', 'third'] }));
  base = await syncBase({ url: sb.url, key: KEY, projects: ['demo', 'other'] }, join(tmp.dir, 'base'));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

const env = () => cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn' });
const COUNT = 'SELECT count(*)::INTEGER AS n FROM conversations';
const turns = (projects: string[]) => projects.reduce((n, p) => n + sb.truth(p).length, 0);

describe('the read snapshot', () => {
  it('a reader holding it open for three runs is never disturbed, blocks nothing, and sees the new data after re-opening', async () => {
    const warehouse = await copyBase(base, join(tmp.dir, 'held'));
    const snapshot = join(tmp.dir, 'held', 'read', 'w.duckdb');
    const reader = await holdDuckDb(snapshot);
    const poller = await holdDuckDb(snapshot);
    try {
      const [{ n: before }] = await reader.query(COUNT) as [{ n: number }];
      expect(before).toBe(turns(['demo', 'other']));
      // A second reader re-opens whenever the read folder changes while the runs go (the moments a
      // publish writes: a busy loop would only burn a core between them): it must only ever see whole runs.
      const seen: { n: number; running: number }[] = [];
      let polling = true;
      let changed = true;
      let wake = () => {};
      const watcher = watch(join(tmp.dir, 'held', 'read'), { recursive: true }, () => {
        changed = true;
        wake();
      });
      const polled = (async () => {
        while (polling) {
          if (!changed) await new Promise<void>((r) => (wake = r));
          changed = false;
          await poller.reopen();
          const [r] = await poller.query(`SELECT (${COUNT}) AS n, (SELECT count(*)::INTEGER FROM sync_runs WHERE status = 'running') AS running`) as [{ n: number; running: number }];
          seen.push(r);
        }
      })();
      const counts = [before];
      // The second run brings new data: a project not synced before.
      for (const [project, synced] of [['demo', ['demo', 'other']], ['third', ['demo', 'other', 'third']], ['demo', ['demo', 'other', 'third']]] as const) {
        const r = await runCli(['sync', '--warehouse', warehouse, '--project', project], env());
        expect(r.code, r.stderr).toBe(0);
        counts.push(turns([...synced]));
      }
      polling = false;
      wake();
      watcher.close();
      await polled;
      expect(counts.at(-1)).toBeGreaterThan(before);
      // The held handle still reads the snapshot it opened.
      expect(await reader.query(COUNT)).toEqual([{ n: before }]);
      await reader.reopen();
      expect(await reader.query(COUNT)).toEqual([{ n: counts.at(-1) }]);
      // Looks during the runs (their publishes), not only the first.
      expect(seen.length).toBeGreaterThan(2);
      for (const s of seen) {
        expect(counts).toContain(s.n);
        expect(s.running).toBe(0);
      }
    } finally {
      await reader.close();
      await poller.close();
    }
  }, 120_000);

  it('status --json names the read path', async () => {
    const warehouse = await copyBase(base, join(tmp.dir, 'status'));
    const r = await runCli(['status', '--json', '--warehouse', warehouse], env());
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { read_path: string; streams: { project_id: string; head_lag_s: number }[] };
    expect(s.read_path).toBe(join(tmp.dir, 'status', 'read', 'w.duckdb'));
    expect(s.streams.map((x) => x.project_id)).toEqual(['demo', 'other']);
  });

  it('readPath in the config moves the snapshot for the sync and for every reader command', async () => {
    const dir = join(tmp.dir, 'moved');
    const config = join(dir, 'docs-etl.json');
    const readPath = join(dir, 'for-bi', 'snapshot.duckdb');
    mkdirSync(dir, { recursive: true });
    writeFileSync(config, JSON.stringify({ warehouse: join(dir, 'w.duckdb'), readPath, projects: [{ id: 'demo', apiKeyEnv: 'DOCS_API_KEY' }] }));
    const sync = await runCli(['sync', '--config', config], env());
    expect(sync.code, sync.stderr).toBe(0);
    expect(existsSync(readPath)).toBe(true);
    expect(existsSync(join(dir, 'read'))).toBe(false);
    // The reader commands in this process (the config's reading is theirs, not the process's).
    const status = await runMain(['status', '--json', '--config', config], env());
    expect((JSON.parse(status.stdout) as { read_path: string }).read_path).toBe(readPath);
    const q = await runMain(['query', '--config', config, '--format', 'json', COUNT], env());
    expect(q.code, q.stderr).toBe(0);
    expect(JSON.parse(q.stdout)).toEqual([{ n: turns(['demo']) }]);
  });
});

describe('who holds the warehouse', () => {
  it('another program holding the writer file: named with its command line, pointed at the snapshot, exit 1', async () => {
    const warehouse = join(tmp.dir, 'other', 'w.duckdb');
    // A warehouse and its read snapshot, as a first sync leaves them (what rows they hold is not the point).
    (await openWarehouse(warehouse)).close();
    await publishForReaders(warehouse);
    const notebook = await holdDuckDb(warehouse);
    try {
      const r = await runCli(['sync', '--warehouse', warehouse], env());
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(`held open by another program \\(PID ${notebook.pid}: \\S*node \\S*duckdb-holder\\.mjs .*w\\.duckdb ro\\); ` +
        `point readers .* at the read snapshot ${join(tmp.dir, 'other', 'read', 'w.duckdb').replaceAll('/', '\\/')} instead`));
      // The snapshot itself stays readable meanwhile.
      const q = await runCli(['query', '--warehouse', warehouse, '--format', 'json', COUNT], env());
      expect(q.code, q.stderr).toBe(0);
    } finally {
      await notebook.close();
    }
  }, 30_000);
  // Another docs-etl sync holding the writer lock: test/sync/cli.test.ts (named with its PID and start).
});

describe('docs-etl query', () => {
  // The read-only cases share one copy (none of them writes); the one beside a sync has its own.
  let shared: string;
  beforeAll(async () => {
    shared = await copyBase(base, join(tmp.dir, 'query'));
  });
  const warehouse = () => shared;

  it('prints csv (not a terminal, a real process), json and a table', async () => {
    const sql = "SELECT 'a,b' AS x, 2::BIGINT AS n, NULL AS z UNION ALL SELECT 'say \"hi\"', 3, 'é'";
    const csv = await runCli(['query', '--warehouse', warehouse(), sql], env());
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe('x,n,z\r\n"a,b",2,\r\n"say ""hi""",3,é\r\n');
    // The other formats in this process: the formatting is the command's, not the process's.
    const json = await runMain(['query', '--warehouse', warehouse(), '--format', 'json', sql], env());
    expect(JSON.parse(json.stdout)).toEqual([{ x: 'a,b', n: 2, z: null }, { x: 'say "hi"', n: 3, z: 'é' }]);
    const table = await runMain(['query', '--warehouse', warehouse(), '--format', 'table', "SELECT project_id, count(*) AS turns FROM conversations WHERE project_id = 'demo' GROUP BY 1"], env());
    expect(table.stdout.split('\n').slice(0, 3)).toEqual(['project_id  turns', '----------  -----', `demo        ${sb.truth('demo').length}`]);
  });

  it('reads the same views users query, from a --file', async () => {
    const file = join(tmp.dir, 'q.sql');
    writeFileSync(file, "SELECT sum(turns)::INTEGER AS turns FROM daily_unanswered_rate WHERE project_id = 'demo';\n");
    const r = await runMain(['query', '--warehouse', warehouse(), '--file', file, '--format', 'json'], env());
    expect(JSON.parse(r.stdout)).toEqual([{ turns: sb.truth('demo').length }]);
  });

  it.each([
    ['SELECT * FROM no_such_table', /Catalog Error: Table with name no_such_table does not exist/],
    ['SELEC 1', /Parser Error: syntax error at or near "SELEC"/],
    ["DELETE FROM conversations WHERE project_id = 'demo'", /read-only SQL: a DELETE statement is refused/],
    // Refused by its type, or earlier by DuckDB itself (query has no file access).
    ["COPY conversations TO '/tmp/x.csv'", /read-only SQL: a COPY statement is refused|file system operations are disabled/],
    ["ATTACH ':memory:' AS scratch", /read-only SQL: a ATTACH statement is refused/],
  ])('%s: exit 2 with one line', async (sql, message) => {
    // In this process (the refusal is the query's, not the process's: a real one prints the others above).
    const r = await runMain(['query', '--warehouse', warehouse(), sql], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('answers while a sync is running', async () => {
    const warehouse = await copyBase(base, join(tmp.dir, 'running'));
    sb.configure({ latencyMs: 300 });
    try {
      // A project of its own: its first backfill takes a few seconds at this latency.
      const sync = spawnCli(['sync', '--warehouse', warehouse, '--project', 'third'], env());
      await waitFor(() => existsSync(`${warehouse}.lock`), 20_000, 10);
      const t = Date.now();
      const q = await runCli(['query', '--warehouse', warehouse, '--format', 'json', COUNT], env());
      expect(q.code, q.stderr).toBe(0);
      expect(Date.now() - t).toBeLessThan(10_000);
      expect(sync.exitCode).toBeNull();
      // The sync's remaining requests need no delay: it only has to finish whole.
      sb.configure({ latencyMs: 0 });
      expect((await sync.result).code).toBe(0);
    } finally {
      sb.configure({ latencyMs: 0 });
    }
  }, 60_000);
});
