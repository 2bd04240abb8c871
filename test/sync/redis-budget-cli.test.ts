// One budget across hosts, end to end: real CLI processes, a real sandbox enforcing a small
// sliding window, a real redis-server (DOCS_ETL_BUDGET_URL). Two syncs with their own warehouses and
// local budget folders (two hosts) share the organization's log in Redis and never exceed the limit
// in any window at the sandbox (with the local logs instead they do: 429s);
// the log survives a Redis restart (append-only); status and doctor read it with the password
// redacted; an unreachable Redis is one line and exit 1, with no request sent and no local log.
// The two overlapping syncs, the run that loses Redis and the unreachable store's refusal are real
// processes (what a host runs, its exit code); the other syncs, status and doctor run the CLI's main
// in-process (in-process-cli.ts: the same command, budget store and lines, without a Node start and
// DuckDB load each).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxInWindow } from '../helpers/window-stats.js';
import { keyFingerprint } from '../../src/core/secrets.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { freePort, HAVE_REDIS, startRedis, type RedisProcess } from '../helpers/redis.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_redis_budget_cli_0001';
const PASSWORD = 'pw-Tr0ub4dor-shared';
const tmp = tempDir('docs-etl-redis-cli-');
let redis: RedisProcess;
const sandboxes: Sandbox[] = [];

beforeAll(async () => {
  if (HAVE_REDIS) redis = await startRedis(tmp.dir, { appendOnly: true, password: PASSWORD });
}, 20_000);
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  await redis?.stop();
  tmp.cleanup();
});

const url = (db: number) => `redis://:${PASSWORD}@127.0.0.1:${redis.port}/${db}`;
const shown = (db: number) => `redis://:***@127.0.0.1:${redis.port}/${db}`;

async function sandbox(o: Parameters<typeof defaultSandboxOptions>[0]): Promise<Sandbox> {
  const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], ...o }));
  sandboxes.push(sb);
  return sb;
}

function env(sb: Sandbox, project: string, extra: Record<string, string>) {
  return cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: project, DOCS_ETL_BUDGET_DIR: join(tmp.dir, 'local-budget'), LOG_LEVEL: 'warn', ...extra });
}

const analytics = (sb: Sandbox) => sb.requestLog(KEY).filter((r) => r.path.startsWith('/v1/analytics/'));

describe.skipIf(!HAVE_REDIS)('one budget across hosts (Redis)', () => {
  it('two sync processes sharing one Redis budget never exceed the limit in any sliding window; no 429', async () => {
    // A window long against this machine's pace, so the budget (not the CPU) sets the rate.
    const rate = { limit: 10, windowMs: 10_000 };
    const sb = await sandbox({ projects: ['a', 'b'], conversations: 12_000, seed: 241, latencyMs: 60, rateLimit: rate });
    const args = (p: string) => ['sync', '--warehouse', join(tmp.dir, `two-${p}.duckdb`), '--rate-limit', '10/10s', '--max-wait', '1m'];
    // Two "hosts": each its own local budget folder, so only the shared Redis can hold them to one budget.
    const host = (p: string) => ({ DOCS_ETL_BUDGET_URL: url(1), DOCS_ETL_BUDGET_DIR: join(tmp.dir, `host-${p}-budget`) });
    // b starts once a is sending, so the two really overlap (each alone needs more than a window).
    const a = spawnCli(args('a'), env(sb, 'a', host('a')));
    await waitFor(() => analytics(sb).length > 0 || a.exitCode !== null, 60_000, 20);
    const results = await Promise.all([a.result, runCli(args('b'), env(sb, 'b', host('b')))]);
    const [aOnly, bOnly] = ['/a/', '/b/'].map((p) => analytics(sb).filter((r) => r.path.includes(p)).map((r) => r.at));
    expect(Math.min(aOnly!.at(-1)!, bOnly!.at(-1)!)).toBeGreaterThan(Math.max(aOnly![0]!, bOnly![0]!));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const log = analytics(sb);
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    expect(maxInWindow(log.map((r) => r.at), rate.windowMs)).toBeLessThanOrEqual(rate.limit);
    // The budget was the bottleneck (more than two windows' worth), and both got all their data.
    expect(log.length).toBeGreaterThan(2 * rate.limit);
    expect(log.at(-1)!.at - log[0]!.at).toBeGreaterThan(2 * rate.windowMs);
    for (const p of ['a', 'b']) expect(await warehouseRows(join(tmp.dir, `two-${p}.duckdb`), p)).toEqual(expectedRows(sb.truth(p)));
    // The log was in Redis, not in a local file (its key has expired with the window since).
    for (const p of ['a', 'b']) expect(existsSync(join(tmp.dir, `host-${p}-budget`))).toBe(false);
    for (const r of results) expect(r.stdout + r.stderr).not.toContain(PASSWORD);
  }, 180_000);

  it('a Redis restart (append-only) keeps the log: the next sync still counts what the first sent; status shows it, password redacted', async () => {
    const rate = { limit: 10, windowMs: 3_600_000 };
    // More pages (15 and the heads) than the budget of 10: the first sync stops on the budget.
    const sb = await sandbox({ projects: ['r'], conversations: 15_000, seed: 242, rateLimit: rate });
    const e = env(sb, 'r', { DOCS_ETL_BUDGET_URL: url(2) });
    const warehouse = join(tmp.dir, 'restart.duckdb');
    const sync = () => runMain(['sync', '--warehouse', warehouse, '--rate-limit', '10/1h', '--max-wait', '0s'], e);
    const status = async () => {
      const r = await runMain(['status', '--warehouse', warehouse, '--rate-limit', '10/1h', '--json'], e);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain(PASSWORD);
      return JSON.parse(r.stdout) as { budget: { used: number; limit: number }[]; budget_store: string };
    };
    const first = await sync();
    expect([0, 3], first.stderr).toContain(first.code);
    const sent = analytics(sb).length;
    expect(sent).toBeGreaterThan(5);
    expect((await status()).budget[0]!.used).toBe(sent);
    // The log lives in Redis under the organization's fingerprint (never the key), not in a local file.
    const raw = new Redis(url(2));
    try {
      expect(await raw.keys('*')).toEqual([`docs-etl:budget:{${keyFingerprint(KEY)}}`]);
      expect(await raw.zcard(`docs-etl:budget:{${keyFingerprint(KEY)}}`)).toBe(sent);
    } finally {
      raw.disconnect();
    }
    expect(existsSync(join(tmp.dir, 'local-budget'))).toBe(false);

    await redis.restart();
    const after = await status();
    expect(after.budget_store).toBe(shown(2));
    expect(after.budget[0]).toMatchObject({ used: sent, limit: 10 });
    const text = await runMain(['status', '--warehouse', warehouse, '--rate-limit', '10/1h'], e);
    expect(text.stdout).toContain(`budget     ${shown(2)}`);
    expect(text.stdout).toContain(`: ${sent}/10 per 1h`);

    const second = await sync();
    expect([0, 3], second.stderr).toContain(second.code);
    const log = analytics(sb);
    // A lost log would have let the second run spend a fresh budget: over the limit, and 429s.
    expect(maxInWindow(log.map((r) => r.at), rate.windowMs)).toBeLessThanOrEqual(rate.limit);
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    for (const r of [first, second, text]) expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    // status with a Redis that is down: one line, exit 1 (no usage made up from elsewhere).
    await redis.stop();
    try {
      const down = await runMain(['status', '--warehouse', warehouse, '--json'], e);
      expect(down.code).toBe(1);
      expect(down.stdout).toBe('');
      expect(down.stderr.trim().split('\n')).toHaveLength(1);
      expect(down.stderr).toMatch(new RegExp(`^docs-etl: error: cannot use the budget store ${shown(2).replace(/[.*]/g, '\\$&')} \\(DOCS_ETL_BUDGET_URL\\): .*ECONNREFUSED`));
    } finally {
      await redis.restart();
    }
  }, 90_000);

  it('unreachable Redis: sync and doctor say so in one line and exit 1; nothing sent, no local log', async () => {
    const sb = await sandbox({ projects: ['u'], conversations: 100, seed: 243 });
    const port = await freePort();
    const e = env(sb, 'u', { DOCS_ETL_BUDGET_URL: `redis://:${PASSWORD}@127.0.0.1:${port}/0` });
    const warehouse = join(tmp.dir, 'unreachable.duckdb');
    const r = await runCli(['sync', '--warehouse', warehouse], e);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^docs-etl: error: cannot use the budget store redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}/0 \\(DOCS_ETL_BUDGET_URL\\): .*ECONNREFUSED`));
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(sb.requestLog(KEY)).toEqual([]);
    expect(existsSync(join(tmp.dir, 'local-budget'))).toBe(false);
    expect(existsSync(warehouse)).toBe(false);

    const doctor = await runMain(['doctor', '--warehouse', warehouse], e);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/✗ budget-store.*cannot use the budget store redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/0/);
    expect(doctor.stdout + doctor.stderr).not.toContain(PASSWORD);
    expect(sb.requestLog(KEY)).toEqual([]);

    // A wrong password is the same kind of failure, and never shows either password (in-process:
    // the same line and exit code; the real process's refusal is the one above).
    const wrong = await runMain(['sync', '--warehouse', warehouse], { ...e, DOCS_ETL_BUDGET_URL: `redis://:not-${PASSWORD}@127.0.0.1:${redis.port}/0` });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/WRONGPASS/);
    expect(wrong.stdout + wrong.stderr).not.toContain(PASSWORD);
  }, 60_000);

  it('config field budget selects Redis; a password in the config file is refused (exit 2)', async () => {
    const sb = await sandbox({ projects: ['c'], conversations: 500, seed: 244 });
    const config = join(tmp.dir, 'budget.json');
    writeFileSync(config, JSON.stringify({ budget: `redis://127.0.0.1:${redis.port}/3`, projects: [{ id: 'c', apiKeyEnv: 'DOCS_API_KEY' }] }));
    const e = env(sb, 'c', {});
    // In-process (the same main, a real Redis connection).
    const noAuth = await runMain(['sync', '--warehouse', join(tmp.dir, 'config.duckdb'), '--config', config], e);
    // The config's Redis is used (it wants a password, which only the environment may give).
    expect(noAuth.code).toBe(1);
    expect(noAuth.stderr).toMatch(/cannot use the budget store redis:\/\/127\.0\.0\.1:\d+\/3 \(config budget\): .*NOAUTH/);
    expect(sb.requestLog(KEY)).toEqual([]);
    writeFileSync(config, JSON.stringify({ budget: url(3), projects: [{ id: 'c', apiKeyEnv: 'DOCS_API_KEY' }] }));
    const refused = await runMain(['sync', '--warehouse', join(tmp.dir, 'config.duckdb'), '--config', config], e);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toMatch(/budget: the URL holds a secret \(a user or password before the host\): the config file holds no secrets, set the DOCS_ETL_BUDGET_URL environment variable instead$/);
    expect(refused.stderr).not.toContain(PASSWORD);
    // The environment's URL (with the password) wins over the config's.
    writeFileSync(config, JSON.stringify({ budget: `redis://127.0.0.1:${redis.port}/3`, projects: [{ id: 'c', apiKeyEnv: 'DOCS_API_KEY' }] }));
    const ok = await runMain(['sync', '--warehouse', join(tmp.dir, 'config.duckdb'), '--config', config], { ...e, DOCS_ETL_BUDGET_URL: url(3) });
    expect(ok.code, ok.stderr).toBe(0);
    const sent = sb.requestLog(KEY).filter((r) => r.path.startsWith('/v1/analytics/')).length;
    expect(sent).toBeGreaterThan(0);
    // doctor: a line for the Redis store, and the budget line counts what the sync sent (plus its own probe).
    const doctor = await runMain(['doctor', '--warehouse', join(tmp.dir, 'config.duckdb'), '--config', config, '--json'], { ...e, DOCS_ETL_BUDGET_URL: url(3) });
    expect(doctor.stdout + doctor.stderr).not.toContain(PASSWORD);
    const checks = (JSON.parse(doctor.stdout) as { checks: { check: string; status: string; detail: string; data?: { used?: number } }[] }).checks;
    expect(checks.find((c) => c.check === 'budget-store')).toMatchObject({ status: 'ok', detail: expect.stringContaining(`Redis ${shown(3)} answers`) as unknown });
    expect(checks.find((c) => c.check === 'budget')?.data?.used).toBe(sb.requestLog(KEY).filter((r) => r.path.startsWith('/v1/analytics/')).length);
    expect(sb.requestLog(KEY).filter((r) => r.path.startsWith('/v1/analytics/')).length).toBe(sent + 1);
  }, 60_000);

  it('Redis lost mid-run: the run stops with exit 1 and no stack trace; the next run, Redis back, completes the data', async () => {
    const dir = tempDir('docs-etl-redis-lost-');
    const own = await startRedis(dir.dir, { appendOnly: true });
    try {
      // About 12 requests at 10/2s: when the third is seen, the run has at least 9 to go (each a budget call).
      const sb = await sandbox({ projects: ['l'], conversations: 10_000, seed: 245, latencyMs: 100 });
      const e = env(sb, 'l', { DOCS_ETL_BUDGET_URL: own.url });
      const args = ['sync', '--warehouse', join(tmp.dir, 'lost.duckdb'), '--rate-limit', '10/2s', '--max-wait', '1m'];
      const child = spawnCli(args, e);
      await waitFor(() => analytics(sb).length >= 3 || child.exitCode !== null, 30_000, 20);
      expect(child.exitCode, "the sync ended before Redis was stopped").toBeNull();
      await own.stop();
      const r = await child.result;
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/the budget store redis:\/\/127\.0\.0\.1:\d+\/0 failed: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      await own.restart();
      // The next run's pace is not in question: no latency for it.
      sb.configure({ latencyMs: 0 });
      const again = await runMain(args, e);
      expect(again.code, again.stderr).toBe(0);
      expect(await warehouseRows(join(tmp.dir, 'lost.duckdb'), 'l')).toEqual(expectedRows(sb.truth('l')));
    } finally {
      await own.stop();
      dir.cleanup();
    }
  }, 120_000);
});
