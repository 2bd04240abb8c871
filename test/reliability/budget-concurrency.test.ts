// Budget under concurrency: three processes of one organization against a sandbox that enforces a
// small window. No window ever holds more than the limit at the sandbox, and no request gets 429.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { expectedRows, warehouseRows } from '../helpers/compare.js';
import { tempDir } from '../helpers/tmp.js';
import { maxInWindow } from '../helpers/windows.js';

const KEY = 'mint_budget_concurrency_key';
let sb: Sandbox | undefined;
const tmp = tempDir();
afterAll(async () => {
  await sb?.close();
  tmp.cleanup();
});

describe('shared budget under concurrency', () => {
  it('three processes, one organization, 20 requests per 5 s: never more in any window', async () => {
    const rate = { limit: 20, windowMs: 5000 };
    const projects = ['a', 'b', 'c'];
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], projects, conversations: 14_000, seed: 62, rateLimit: rate, latencyMs: 20 }));
    const results = await Promise.all(projects.map((p) =>
      runCli(['sync', '--warehouse', join(tmp.dir, `${p}.duckdb`), '--rate-limit', '20/5s', '--max-wait', '1m'],
        cliEnv({ DOCS_API_BASE_URL: sb!.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: p, DOCS_ETL_BUDGET_DIR: join(tmp.dir, 'budget'), LOG_LEVEL: 'warn' })),
    ));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const log = sb.requestLog(KEY);
    expect(log.filter((x) => x.status === 429)).toEqual([]);
    expect(log).toHaveLength(3 * 14);
    expect(maxInWindow(log.map((x) => x.at), rate.windowMs)).toBeLessThanOrEqual(rate.limit);
    for (const p of projects) expect(await warehouseRows(join(tmp.dir, `${p}.duckdb`), p)).toEqual(expectedRows(sb.truth(p)));
  }, 120_000);
});
