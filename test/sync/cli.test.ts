// `docs-etl sync` and `status` as a user runs them: real processes, real HTTP, real DuckDB files.
// The syncs, a usage error, a wrong key and the refused second writer are real processes (exit
// codes, stdout and stderr as a user sees them); the status reads and the other refusals run the
// CLI's main in-process (in-process-cli.ts: the same command and lines, without a Node start each).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';
import { publishForReaders } from '../helpers/publish.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';

const KEY = 'mint_cli_secret_key_4242';
let sb: Sandbox;
let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir();
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 1000, historyDays: 14, seed: 21, projects: ['demo', 'slow'] }));
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

const env = (extra: Record<string, string> = {}) =>
  cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', ...extra });

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('docs-etl sync (CLI)', () => {
  it('syncs, prints a summary, and the key appears nowhere: logs, warehouse, state', async () => {
    const dir = join(tmp.dir, 'secret');
    const warehouse = join(dir, 'w.duckdb');
    const r = await runCli(['sync', '--warehouse', warehouse], env({ LOG_LEVEL: 'debug' }));
    expect(r.stderr).not.toContain('Error:');
    expect(r.code).toBe(0);
    const line = /demo\/assistant_conversations: succeeded \| windows: 1 head, (\d+) backfill( \(\d+ deferred\))? \| (\d+) pages, (\d+) requests, 1,000 rows merged, 0 quarantined/.exec(r.stdout);
    expect(line, r.stdout).not.toBeNull();
    expect(r.stdout).toMatch(/read snapshot published: .*read\/w\.duckdb/);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    const status = await runMain(['status', '--warehouse', warehouse], env());
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/demo\s+assistant_conversations\s+\S+ \(lag \d+s\)/);
    expect(status.stdout).toContain(`${line![4]}/100 per 1h`);
    for (const text of [r.stdout, r.stderr, status.stdout, status.stderr]) expect(text).not.toContain(KEY);
    const files = filesUnder(dir);
    expect(files.length).toBeGreaterThan(1);
    for (const f of files) expect(readFileSync(f).includes(Buffer.from(KEY)), f).toBe(false);
  });

  it.each([
    [['sync', '--lookback', 'banana'], /invalid duration "banana"/],
    [['sync', '--rate-limit', '0/1h'], /invalid rate limit/],
    [['sync', '--from', 'last tuesday'], /expected a date/],
    [['sync', '--request-timeout', '0s'], /--request-timeout .*invalid request timeout "0s": must be positive/],
    [['sync', '--request-timeout', '2d'], /--request-timeout .*invalid request timeout "2d": at most 24h/],
    [['sync', '--colour'], /unknown option '--colour'/],
    [['synk'], /unknown command 'synk'/],
  ])('bad usage %j: one clear line, exit 2', async (args, message) => {
    const r = await runMain(args, env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('bad usage in a real process: one clear line on stderr, nothing on stdout, exit 2', async () => {
    const r = await runCli(['sync', '--lookback', 'banana'], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid duration "banana"/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('a missing key or project is a usage error (exit 2)', async () => {
    const noKey = await runMain(['sync', '--warehouse', join(tmp.dir, 'x.duckdb')], cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_PROJECT_ID: 'demo' }));
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/no API key: set DOCS_API_KEY/);
    const noProject = await runMain(['sync', '--warehouse', join(tmp.dir, 'x.duckdb')], cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY }));
    expect(noProject.code).toBe(2);
    expect(noProject.stderr).toMatch(/no project/);
  });

  it('a malformed config file is reported with the field path (exit 2)', async () => {
    const file = join(tmp.dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ projects: [{ id: 'demo', apiKeyEnv: 'ACME KEY' }] }));
    const r = await runMain(['sync', '--config', file], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/projects\[0\]\.apiKeyEnv: expected an environment variable name/);
  });

  it('a wrong key: one clear line naming the variable, exit 1, no stack trace', async () => {
    const r = await runCli(['sync', '--warehouse', join(tmp.dir, 'wrong.duckdb')], env({ DOCS_API_KEY: 'mint_wrong' }));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/the API key was rejected \(401\): check DOCS_API_KEY/);
    expect(r.stderr + r.stdout).not.toMatch(/\n\s+at /);
    expect(r.stderr + r.stdout).not.toContain('mint_wrong');
  });

  it('an unknown project: a clear 404 line, exit 1', async () => {
    const r = await runMain(['sync', '--warehouse', join(tmp.dir, 'nf.duckdb'), '--project', 'nope'], env());
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/project "nope" was not found \(404\)/);
  });

  it('a config file syncs several projects; status --check reports health', async () => {
    const file = join(tmp.dir, 'multi.json');
    const warehouse = join(tmp.dir, 'multi', 'w.duckdb');
    writeFileSync(file, JSON.stringify({ warehouse, projects: [{ id: 'demo', apiKeyEnv: 'ACME_KEY' }, { id: 'slow', apiKeyEnv: 'ACME_KEY' }] }));
    const before = await runMain(['status', '--check', '--warehouse', warehouse], env());
    expect(before.code).toBe(1);
    const r = await runMain(['sync', '--config', file], cliEnv({ DOCS_API_BASE_URL: sb.url, ACME_KEY: KEY }));
    expect(r.code).toBe(0);
    expect(await warehouseRows(warehouse, 'slow')).toEqual(expectedRows(sb.truth('slow')));
    const check = await runMain(['status', '--check', '--warehouse', warehouse], env());
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/healthy: 2 stream/);
    // What a long sync's mid-run snapshot holds: its runs still 'running'. Healthy while they
    // started within --max-age; a run that has been 'running' for longer is not.
    // The read surface's tables are views over Parquet files: the state is made in the warehouse
    // (no sync holds it now) and published the way a mid-run publish would.
    const wh = await openWarehouse(warehouse);
    try {
      await wh.conn.run("UPDATE sync_runs SET status = 'running', finished_at = NULL, started_at = now() - INTERVAL 2 HOUR");
    } finally {
      wh.close();
    }
    await publishForReaders(warehouse, join(tmp.dir, 'multi', 'read', 'w.duckdb'));
    const running = await runMain(['status', '--check', '--warehouse', warehouse], env());
    expect(running.code, running.stdout).toBe(0);
    const stuck = await runMain(['status', '--check', '--max-age', '1h', '--warehouse', warehouse], env());
    expect(stuck.code).toBe(1);
    expect(stuck.stdout).toMatch(/unhealthy: .*last run running/);
  });

  it('a second sync on the same warehouse fails at once and touches nothing', async () => {
    const warehouse = join(tmp.dir, 'busy', 'w.duckdb');
    sb.configure({ latencyMs: 400 });
    try {
      const before = sb.requestLog(KEY).length;
      const first = spawnCli(['sync', '--warehouse', warehouse], env());
      // Wait until the first process holds the warehouse: its writer lock is taken and it is reading.
      await waitFor(() => existsSync(`${warehouse}.lock`) && sb.requestLog(KEY).length > before, 30_000, 20);
      const t = Date.now();
      const second = await runCli(['sync', '--warehouse', warehouse], env());
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`is being written by another docs-etl process \\(PID ${first.pid}, started \\d{4}-\\d\\d-\\d\\dT[^,]+: docs-etl sync\\)`));
      // A refusal, not a wait for the first to finish (that takes many 400 ms requests); the bound
      // has room for a loaded machine's process start.
      expect(Date.now() - t).toBeLessThan(10_000);
      expect(first.exitCode).toBeNull();
      // The first run's remaining requests need no delay: it only has to finish whole.
      sb.configure({ latencyMs: 0 });
      const r = await first.result;
      expect(r.code).toBe(0);
      expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    } finally {
      sb.configure({ latencyMs: 0 });
    }
  });
});
