// The shared rate budget under concurrency: processes of one organization (same key, their own
// warehouses and projects, one DOCS_ETL_BUDGET_DIR) against a sandbox that enforces a small
// sliding window. At the sandbox, no window ever holds more than the limit, no request gets a 429,
// and every warehouse equals its project's truth; also with latency, faults and a process killed
// while it held slots.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import type { SandboxOptions } from '../../src/tools/sandbox/options.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { tempDir } from '../helpers/tmp.js';
import { maxInWindow } from '../helpers/window-stats.js';
import { waitFor } from '../helpers/wait.js';
import { query } from './reliability-helpers.js';

const KEY = 'mint_reliability_budget';
let sb: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sb?.close();
  tmp?.cleanup();
  sb = undefined;
  tmp = undefined;
});

async function setup(projects: string[], rate: { limit: number; windowMs: number }, over: Partial<SandboxOptions>) {
  tmp = tempDir('docs-etl-budget-');
  sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], projects, rateLimit: rate, ...over }));
  const sandbox = sb;
  const dir = tmp.dir;
  const args = (p: string) => ['sync', '--warehouse', join(dir, `${p}.duckdb`), '--rate-limit', `${rate.limit}/${rate.windowMs}ms`, '--max-wait', '1m'];
  const env = (p: string) =>
    cliEnv({ DOCS_API_BASE_URL: sandbox.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: p, DOCS_ETL_BUDGET_DIR: join(dir, 'budget'), LOG_LEVEL: 'warn' });
  return { sandbox, dir, args, env };
}

async function expectWithinBudget(sandbox: Sandbox, rate: { limit: number; windowMs: number }, projects: string[], dir: string) {
  const log = sandbox.requestLog(KEY);
  expect(log.filter((r) => r.status === 429)).toEqual([]);
  expect(maxInWindow(log.map((r) => r.at), rate.windowMs)).toBeLessThanOrEqual(rate.limit);
  for (const p of projects) expect(await warehouseRows(join(dir, `${p}.duckdb`), p)).toEqual(expectedRows(sandbox.truth(p)));
  return log;
}

describe('shared budget under concurrency', () => {
  it('three processes, 10 requests per 2 s, 150 ms latency: never over the limit, no 429, exact data', async () => {
    const rate = { limit: 10, windowMs: 2000 };
    const projects = ['a', 'b', 'c'];
    // 5,000 turns over 30 days: about 1,150 a week, so most weekly windows take two pages (a cursor
    // followed under the budget) and the last a partial one.
    const { sandbox, dir, args, env } = await setup(projects, rate, { conversations: 5000, seed: 71, latencyMs: 150 });
    const results = await Promise.all(projects.map((p) => runCli(args(p), env(p))));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const log = await expectWithinBudget(sandbox, rate, projects, dir);
    // Nothing wasted: one request per page the plan's windows needed (a window's last page is the
    // only partial one), no page fetched twice, no request lost to the limit.
    let pages = 0;
    let multiPage = false;
    for (const p of projects) {
      const windows = await query(join(dir, `${p}.duckdb`), 'SELECT window_from, window_to, pages, rows FROM sync_windows');
      for (const w of windows) expect(Number(w.pages)).toBe(Math.max(1, Math.ceil(Number(w.rows) / 1000)));
      expect(windows.reduce((n, w) => n + Number(w.rows), 0)).toBe(5000);
      pages += windows.reduce((n, w) => n + Number(w.pages), 0);
      multiPage ||= windows.some((w) => Number(w.pages) > 1);
    }
    expect(multiPage).toBe(true);
    // The first run of each all-history stream also probes where its history starts (caller-stats,
    // at most 9 requests, paid from the same budget: counted in the window checks above).
    const probes = log.filter((r) => r.path.endsWith('/caller-stats')).length;
    expect(probes).toBeLessThanOrEqual(9 * projects.length);
    expect(log.length - probes).toBe(pages);
    // The budget was the bottleneck: more than two windows' worth of requests.
    expect(log.length).toBeGreaterThan(2 * rate.limit);
    expect(log.at(-1)!.at - log[0]!.at).toBeGreaterThan(2 * rate.windowMs);
  }, 90_000);

  it('two processes, 20 per 5 s, faults and retries: retried requests are paid from the same budget', async () => {
    const rate = { limit: 20, windowMs: 5000 };
    const projects = ['a', 'b'];
    const { sandbox, dir, args, env } = await setup(projects, rate, {
      conversations: 8000, seed: 72, latencyMs: 20, faultRate: 0.25, faults: ['http5xx', 'reset', 'truncate'],
    });
    const results = await Promise.all(projects.map((p) => runCli(args(p), env(p))));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const log = await expectWithinBudget(sandbox, rate, projects, dir);
    // Requests were retried (failed ones: 5xx and resets) and the budget was the bottleneck: more
    // than two windows' worth of requests.
    expect(log.filter((r) => r.status !== 200).length).toBeGreaterThan(0);
    expect(log.length).toBeGreaterThan(2 * rate.limit);
  }, 90_000);

  it('a process SIGKILLed while holding slots: the others go on, the window is never exceeded', async () => {
    const rate = { limit: 10, windowMs: 2000 };
    const projects = ['a', 'b', 'c'];
    const { sandbox, dir, args, env } = await setup(projects, rate, { conversations: 3000, seed: 73, latencyMs: 300 });
    const victim = spawnCli(args('a'), env('a'));
    const others = Promise.all(['b', 'c'].map((p) => runCli(args(p), env(p))));
    // Kill it while a request of its own is in flight (its slot is open in the shared log).
    await waitFor(() => sandbox.requestLog(KEY).some((r) => r.path.includes('/a/') && r.status === 0), 20_000, 10);
    victim.kill('SIGKILL');
    expect((await victim.result).signal).toBe('SIGKILL');
    const again = await runCli(args('a'), env('a'));
    expect(again.code, again.stderr).toBe(0);
    for (const r of await others) expect(r.code, r.stderr).toBe(0);
    await expectWithinBudget(sandbox, rate, projects, dir);
  }, 90_000);
});
