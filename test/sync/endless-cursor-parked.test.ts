// Issue 33 item 7b: a cursor that never ends (the sandbox's `endlessCursor` fault: feedback answers
// hasMore with a fresh cursor and empty pages for ever) costs at most 20 requests in a run; then the
// window is parked in the warehouse (`parked_windows`), the next run within the backoff does not
// read it, `status`, `status --json` and `status --check` name it, and once the retry is due it is
// read again (≤ 20 requests) and parked for twice as long. Real CLI, the sandbox over HTTP, DuckDB:
// the syncs are real processes; the status reads run the CLI's main in-process (in-process-cli.ts:
// the same commands and lines, without a Node start and DuckDB load each).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { execute, query } from '../reliability/reliability-helpers.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'mint_endless_cursor_key';
const H = 3_600_000;
const tmp = tempDir('docs-etl-endless-');
let sb: Sandbox | undefined;
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

describe('a cursor that never ends', () => {
  it('costs at most 20 requests a run, is parked, skipped within its backoff, named by status, retried after it', async () => {
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 500, seed: 34, endlessCursor: true }));
    const sandbox = sb;
    const warehouse = join(tmp.dir, 'w.duckdb');
    const env = cliEnv({
      DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn', DOCS_PIPELINES: 'assistant_conversations,feedback',
    });
    const sync = ['sync', '--warehouse', warehouse, '--rate-limit', '1000/1h'];
    const feedbackRequests = () => sandbox.requestLog(KEY).filter((r) => r.path.endsWith('/feedback')).length;

    const first = await runCli(sync, env);
    const firstCost = feedbackRequests();
    expect(first.code, first.stderr).toBe(1);
    expect(firstCost).toBeGreaterThan(1);
    expect(firstCost).toBeLessThanOrEqual(20);
    expect(first.stderr).toMatch(/^docs-etl: error: demo: the API kept paging with \d+ empty pages in a row in window \S+ → \S+ \(hasMore and a fresh cursor each time\): the window was ended here, no further requests; the window is parked: no read of demo\/feedback before \S+ \(retry 1\)$/m);
    const parked = await query(warehouse, 'SELECT attempts, (epoch_ms(retry_at) - epoch_ms(parked_at))::INTEGER AS wait_ms FROM parked_windows');
    expect(parked).toEqual([{ attempts: 1, wait_ms: H }]);
    // The assistant loaded all the same.
    expect((await query(warehouse, 'SELECT count(*)::INTEGER AS n FROM conversations'))[0]!.n).toBeGreaterThan(0);

    // Within the backoff: not read at all; the run exits 0.
    const second = await runCli(sync, env);
    expect(second.code, second.stderr).toBe(0);
    expect(feedbackRequests()).toBe(firstCost);

    const status = await runMain(['status', '--warehouse', warehouse], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/warning: demo\/feedback: parked: window head \S+ → \S+ \(the API kept paging .*\) since \S+; retried after \S+ \(attempt 1\)/);
    const json = await runMain(['status', '--json', '--warehouse', warehouse], env);
    const streams = (JSON.parse(json.stdout) as { streams: { pipeline: string; parked: { attempts: number; retry_at: string } | null }[] }).streams;
    expect(streams.find((s) => s.pipeline === 'feedback')!.parked).toMatchObject({ attempts: 1 });
    expect(streams.find((s) => s.pipeline === 'assistant_conversations')!.parked).toBeNull();
    const check = await runMain(['status', '--check', '--warehouse', warehouse], env);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/demo\/feedback: parked: window /);

    // The retry is due (moved into the past): read again, at most 20 requests, parked for 2 h.
    await execute(warehouse, `UPDATE parked_windows SET retry_at = now() - INTERVAL 1 MINUTE`);
    const third = await runCli(sync, env);
    expect(third.code, third.stderr).toBe(1);
    expect(feedbackRequests() - firstCost).toBeGreaterThan(0);
    expect(feedbackRequests() - firstCost).toBeLessThanOrEqual(20);
    expect(await query(warehouse, 'SELECT attempts, (epoch_ms(retry_at) - epoch_ms(parked_at))::INTEGER AS wait_ms FROM parked_windows')).toEqual([{ attempts: 2, wait_ms: 2 * H }]);
  }, 240_000);
});
