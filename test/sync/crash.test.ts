// Crash safety and the shared budget, with real processes: SIGKILL at random moments, and two
// processes of one organization against a sandbox that enforces a small window.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { expectedRows, scalar, warehouseRows } from '../helpers/compare.js';
import { tempDir } from '../helpers/tmp.js';
import { sleep, waitFor } from '../helpers/wait.js';
import { maxInWindow } from '../helpers/window-stats.js';

const KEY = 'mint_crash_test_key_77';
let sb: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sb?.close();
  tmp?.cleanup();
  sb = undefined;
  tmp = undefined;
});

describe('crash safety', () => {
  it('SIGKILL at random moments, then resume: the final warehouse equals the truth exactly', async () => {
    tmp = tempDir();
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 10_000, seed: 31, latencyMs: 60, malformedRate: 0.002 }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn' });
    let kills = 0;
    for (let i = 0; i < 6; i++) {
      const sandbox = sb;
      // The export's reads (a first run probes where history starts first: caller-stats).
      const reads = () => sandbox.requestLog(KEY).filter((r) => !r.path.endsWith('/caller-stats')).length;
      const before = reads();
      const child = spawnCli(['sync', '--warehouse', warehouse, '--rate-limit', '10000/1h'], env);
      // Kill inside the run (its first read has arrived), not during a slow machine's start-up.
      await waitFor(() => reads() > before || child.exitCode !== null, 20_000);
      await sleep(Math.random() * 700);
      if (child.kill('SIGKILL')) kills++;
      await child.result;
    }
    const r = await runCli(['sync', '--warehouse', warehouse, '--rate-limit', '10000/1h'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(kills).toBeGreaterThan(3);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    // The quarantine holds each malformed record exactly once, however often its page was re-read
    // after a kill, because a page's quarantine rows commit with its checkpoint.
    expect(await scalar(warehouse, 'SELECT count(*) FROM quarantine')).toBe(BigInt(sb.malformed('demo').length));
    expect(await scalar(warehouse, "SELECT count(*) FROM sync_runs WHERE status = 'interrupted'")).toBeGreaterThan(0n);
  }, 60_000);
});

describe('shared rate budget', () => {
  it('two processes of one organization never exceed the limit in any window', async () => {
    tmp = tempDir();
    const rate = { limit: 10, windowMs: 2000 };
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], projects: ['a', 'b'], conversations: 4000, seed: 32, rateLimit: rate }));
    const env = (project: string) =>
      cliEnv({ DOCS_API_BASE_URL: sb!.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: project, DOCS_ETL_BUDGET_DIR: join(tmp!.dir, 'budget'), LOG_LEVEL: 'warn' });
    const [a, b] = await Promise.all([
      runCli(['sync', '--warehouse', join(tmp.dir, 'a.duckdb'), '--rate-limit', '10/2s'], env('a')),
      runCli(['sync', '--warehouse', join(tmp.dir, 'b.duckdb'), '--rate-limit', '10/2s'], env('b')),
    ]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const log = sb.requestLog(KEY);
    expect(log.filter((x) => x.status === 429)).toEqual([]);
    // Every request either process made is accounted for in its summary: none was lost to a 429.
    const reported = (out: string) => Number(/ (\d+) requests,/.exec(out)?.[1]);
    expect(log.length).toBe(reported(a.stdout) + reported(b.stdout));
    expect(maxInWindow(log.map((x) => x.at), rate.windowMs)).toBeLessThanOrEqual(rate.limit);
    expect(await warehouseRows(join(tmp.dir, 'b.duckdb'), 'b')).toEqual(expectedRows(sb.truth('b')));
  }, 60_000);
});
