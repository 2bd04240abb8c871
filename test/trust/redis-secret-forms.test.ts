// Issue 33, item 3: a Redis password in every form ioredis takes it (userinfo `:pass@` and
// `user:pass@`, `?password=`, `?username=…&password=`, `?sentinelPassword=`, rediss://), against a
// real redis-server and an unreachable port, appears in no stdout or stderr of sync, status,
// status --json and doctor, in no file under the state folders and in no table of the warehouse.
// The config file's `budget` refuses any secret with one line (exit 2) naming DOCS_ETL_BUDGET_URL.
// The working forms' syncs, one failing form's sync and one config refusal run as real processes;
// the other syncs and refusals, status, status --json and doctor run the CLI's `main` in-process
// with their own stdout and stderr: the same commands and error lines, without a Node start and
// DuckDB load each.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { freePort, HAVE_REDIS, startRedis, type RedisProcess } from '../helpers/redis.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_redis_secret_forms_0007';
const PW = 'Pl4nted-r3dis-S3cret';
const FORMS = [PW, encodeURIComponent(PW), Buffer.from(PW).toString('base64')];
const tmp = tempDir('docs-etl-redis-secret-');
let redis: RedisProcess;
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 40, historyDays: 1, seed: 33 }));
  if (HAVE_REDIS) redis = await startRedis(tmp.dir, { password: PW });
}, 30_000);
afterAll(async () => {
  await sb.close();
  await redis?.stop();
  tmp.cleanup();
});

/** Every file under `dir`, recursively. */
function files(dir: string): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((n) => join(dir, n)).filter((p) => statSync(p).isFile());
}

/** Every row of every table and view of a DuckDB file, as text. */
async function tableText(path: string): Promise<string> {
  const db = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const conn = await db.connect();
  try {
    const tables = (await (await conn.run(`SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database()`)).getRowObjectsJS()) as { schema_name: string; table_name: string }[];
    expect(tables.length).toBeGreaterThan(3);
    let text = '';
    for (const t of tables) {
      const rows = await (await conn.run(`SELECT * FROM "${t.schema_name}"."${t.table_name}"`)).getRowObjectsJson();
      text += JSON.stringify(rows);
    }
    return text;
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

function expectAbsent(text: string, what: string): void {
  for (const f of FORMS) expect(text.includes(f), `${what} holds the planted password`).toBe(false);
}

/** sync (a real process unless `inProcess`), status, status --json and doctor with one DOCS_ETL_BUDGET_URL; their output, checked. */
async function runAll(name: string, url: string, inProcess = false): Promise<CliResult[]> {
  const state = join(tmp.dir, name);
  const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', DOCS_ETL_BUDGET_URL: url, XDG_STATE_HOME: join(state, 'xdg'), LOG_LEVEL: 'debug' });
  const wh = ['--warehouse', join(state, 'wh', 'warehouse.duckdb')];
  const out: CliResult[] = [];
  for (const args of [['sync', ...wh], ['status', ...wh], ['status', '--json', ...wh], ['doctor', ...wh]]) {
    const r = args[0] === 'sync' && !inProcess ? await runCli(args, env) : await runMain(args, env);
    expectAbsent(r.stdout + r.stderr, `${name}: ${args[0]} ${args[1]}`);
    out.push(r);
  }
  for (const f of files(state)) expectAbsent(readFileSync(f).toString('latin1'), f);
  return out;
}

describe.skipIf(!HAVE_REDIS)('a Redis password in every form', () => {
  it('working URLs (?password=, userinfo, ?username=&password=): shown masked, absent from every output, file and table', async () => {
    const forms = {
      query: `redis://127.0.0.1:${redis.port}/2?password=${PW}`,
      userinfo: `redis://default:${PW}@127.0.0.1:${redis.port}/2`,
      named: `redis://127.0.0.1:${redis.port}/2?username=default&password=${PW}`,
    };
    // The forms are independent (each its own state folder and warehouse): checked side by side.
    await Promise.all(Object.entries(forms).map(async ([name, url]) => {
      const [sync, status, json, doctor] = await runAll(name, url);
      expect(sync!.code, sync!.stderr).toBe(0);
      expect(status!.code, status!.stderr).toBe(0);
      expect(status!.stdout).toMatch(/budget {5}redis:\/\/.*127\.0\.0\.1:\d+\/2/);
      expect(status!.stdout).toContain('***');
      const store = (JSON.parse(json!.stdout) as { budget_store: string }).budget_store;
      expect(store).toContain('***');
      expect(doctor!.stdout + doctor!.stderr).toMatch(/Redis redis:\/\/\S*\*\*\*\S* answers/);
      expectAbsent(await tableText(join(tmp.dir, name, 'wh', 'warehouse.duckdb')), `${name}: the warehouse's tables`);
    }));
  }, 300_000);

  it('failing URLs (unreachable port, sentinelPassword, rediss to a plain port): one line each, never the password', async () => {
    const dead = await freePort();
    const forms = {
      'dead-query': `redis://127.0.0.1:${dead}/0?password=${PW}`,
      'dead-userinfo': `redis://:${PW}@127.0.0.1:${dead}/0`,
      sentinel: `redis://127.0.0.1:${redis.port}/0?sentinelPassword=${PW}`,
      // A TLS client at a plain Redis hears nothing back: it waits for the connect timeout, 5 s by
      // default, in each of the four commands; the URL's own connectTimeout (a user's setting too) cuts that.
      tls: `rediss://127.0.0.1:${redis.port}/0?password=${PW}&connectTimeout=500`,
    };
    // The forms are independent (each its own state folder): checked side by side, so the waits overlap.
    await Promise.all(Object.entries(forms).map(async ([name, url]) => {
      // One of them a real process (its exit code and output as a user sees them).
      const [sync, status, json, doctor] = await runAll(name, url, name !== 'dead-userinfo');
      expect(sync!.code, `${name}: ${sync!.stderr}`).toBe(1);
      expect(sync!.stderr).toMatch(/cannot use the budget store redis/);
      expect(status!.code).not.toBe(0);
      expect(json!.code).not.toBe(0);
      expect(doctor!.stdout + doctor!.stderr).toMatch(/budget-store/);
    }));
  }, 240_000);

  it('the config file\'s budget refuses a secret in any form: exit 2, one line naming DOCS_ETL_BUDGET_URL', async () => {
    // Independent runs (each its own config file): side by side; the first a real process.
    const budgets = [`redis://:${PW}@127.0.0.1:1/0`, `redis://127.0.0.1:1/0?password=${PW}`, `rediss://127.0.0.1:1/0?sentinelPassword=${PW}`, `redis://${PW}@127.0.0.1:1/0`];
    await Promise.all(budgets.map(async (budget, i) => {
      const config = join(tmp.dir, `config-${i}.json`);
      writeFileSync(config, JSON.stringify({ projects: ['demo'], budget }));
      const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, XDG_STATE_HOME: join(tmp.dir, `config-xdg-${i}`) });
      const args = ['sync', '--config', config, '--warehouse', join(tmp.dir, `config-wh-${i}`, 'w.duckdb')];
      const r = i === 0 ? await runCli(args, env) : await runMain(args, env);
      expect(r.code, budget).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/budget: the URL holds a secret .*set the DOCS_ETL_BUDGET_URL environment variable instead/);
      expectAbsent(r.stdout + r.stderr, budget);
    }));
  }, 120_000);
});
