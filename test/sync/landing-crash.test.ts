// The landing zone is the checkpoint (issue 10): a SIGKILL while pages are fetched, and another
// while a batch is being merged, then a normal run. Nothing is lost or duplicated, the quarantine
// holds each bad record once, and no page that had landed is requested again.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { expectedRows, scalar, warehouseRows } from '../helpers/compare.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_landing_crash_key_9';
let sb: Sandbox | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sb?.close();
  tmp?.cleanup();
});

const landed = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true }).map(String).filter((f) => /\d+\.json$/.test(f));
  } catch {
    return [];
  }
};

describe('crash safety of the landing zone', () => {
  it('SIGKILL while fetching and while merging: 0 lost, 0 duplicated, no landed page read again', async () => {
    tmp = tempDir();
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 30_000, seed: 61, latencyMs: 25, malformedRate: 0.003 }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const landing = join(tmp.dir, 'landing', 'w', 'pages');
    // One head, then the history as one window of 30 pages: the kills land in its middle.
    const args = ['sync', '--warehouse', warehouse, '--rate-limit', '10000/1h', '--from', new Date(Date.now() - 31 * 86_400_000).toISOString(), '--max-window', '32d'];
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'debug' });
    const requests = () => sb!.requestLog(KEY).filter((r) => r.status === 200).length;

    // 1. Killed while fetching: after some pages arrived.
    const fetching = spawnCli(args, env);
    await waitFor(() => requests() >= 8 || fetching.exitCode !== null, 30_000);
    fetching.kill('SIGKILL');
    expect((await fetching.result).signal).toBe('SIGKILL');

    // 2. Killed while merging: the recovery merge of what the first run landed, or a later batch.
    let kills = 1;
    let killedMidMerge = false;
    for (let attempt = 0; attempt < 5 && !killedMidMerge; attempt++) {
      const merging = spawnCli(args, env);
      let stderr = '';
      merging.stderr!.on('data', (d) => (stderr += d));
      await waitFor(() => stderr.includes('"msg":"merging landed pages"') || merging.exitCode !== null, 30_000, 1);
      merging.kill('SIGKILL');
      const r = await merging.result;
      if (r.signal === 'SIGKILL') kills++;
      // Pages still landed after the kill: the batch had not committed (or not been released).
      killedMidMerge = r.signal === 'SIGKILL' && landed(landing).length > 0;
    }
    expect(killedMidMerge).toBe(true);

    const final = await runCli(args, { ...env, LOG_LEVEL: 'warn' });
    expect(final.code, final.stderr).toBe(0);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(sb.truth('demo')));
    expect(await scalar(warehouse, 'SELECT count(*) FROM quarantine')).toBe(BigInt(sb.malformed('demo').length));
    expect(landed(landing)).toEqual([]);
    // Every page that landed was merged once, and counted for its run. What was requested beyond
    // that is at most the page in flight and the one read ahead, at each kill.
    const merged = Number(await scalar(warehouse, 'SELECT sum(pages) FROM sync_runs'));
    expect(Number(await scalar(warehouse, "SELECT count(*) FROM sync_runs WHERE status = 'interrupted'"))).toBeGreaterThanOrEqual(1);
    expect(requests()).toBeGreaterThanOrEqual(merged);
    expect(requests() - merged).toBeLessThanOrEqual(2 * kills);
  }, 120_000);
});
