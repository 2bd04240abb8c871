// Issue 33 item 8: a stopped run still publishes. A first sync stopped by SIGTERM (or by the
// budget, exit 3) leaves a read snapshot that readers open: `docs-etl query` counts what the run
// merged before it stopped, instead of refusing with "no read snapshot yet". Real CLI processes, a
// real sandbox over HTTP on 127.0.0.1, real DuckDB files.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_stop_publishes_key';
const tmp = tempDir('docs-etl-stop-publishes-');
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  tmp.cleanup();
});

/** The turns a reader of the read snapshot counts (`docs-etl query`, JSON output). */
async function readerCount(warehouse: string, env: NodeJS.ProcessEnv): Promise<number> {
  const q = await runCli(['query', '--warehouse', warehouse, '--format', 'json', 'SELECT count(*)::INTEGER AS n FROM conversations'], env);
  expect(q.code, q.stderr).toBe(0);
  return (JSON.parse(q.stdout) as { n: number }[])[0]!.n;
}

describe('a stopped run still publishes', () => {
  it('SIGTERM during a first sync: exit 0, "stopped on request", and the read snapshot holds what was merged', async () => {
    // Each request takes 300 ms: the whole history is 9 pages of one backfill window after the head.
    const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 9000, seed: 7, latencyMs: 300 }));
    sandboxes.push(sb);
    const warehouse = join(tmp.dir, 'term', 'w.duckdb');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn' });
    const child = spawnCli(['sync', '--warehouse', warehouse, '--rate-limit', '1000/1h', '--from', new Date(Date.now() - 31 * 86_400_000).toISOString(), '--max-window', '32d'], env);
    // A real event: three pages answered (the head and two backfill pages), the run mid-window.
    await waitFor(() => sb.requestLog(KEY).filter((r) => r.status === 200).length >= 3, 30_000, 20);
    child.kill('SIGTERM');
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/demo\/assistant_conversations: stopped .*\| stopped on request( at a checkpoint)?$/m);
    expect(r.stdout).not.toMatch(/waiting for rate budget/);
    expect(r.stdout).toMatch(/read snapshot published: /);
    const n = await readerCount(warehouse, env);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(sb.truth('demo').length);
  }, 120_000);

  it('a budget stop (exit 3) publishes what it merged', async () => {
    // The head (the last hour) is about 4 pages of 1,000 turns: more than the budget of 2 requests.
    const sb = await startSandbox(defaultSandboxOptions({ apiKeys: [`${KEY}_b`], conversations: 80_000, historyDays: 1, seed: 8 }));
    sandboxes.push(sb);
    const warehouse = join(tmp.dir, 'budget', 'w.duckdb');
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: `${KEY}_b`, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn' });
    const r = await runCli(['sync', '--warehouse', warehouse, '--rate-limit', '2/1h', '--max-wait', '0s'], env);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/read snapshot published: /);
    expect(await readerCount(warehouse, env)).toBeGreaterThan(0);
  }, 120_000);
});
