// Kill storm: a sync of 24,000 turns against a faulty API (20% of requests fail: 5xx, reset,
// truncated body, repeated record; 0.5% malformed records; latency), SIGKILLed at a dozen random
// moments and restarted each time. The final warehouse equals the API's truth exactly (nothing
// lost, nothing twice, nothing stale) and the quarantine holds exactly the malformed records.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, spawnCli } from '../helpers/cli.js';
import { expectedRows, scalar, warehouseRows } from '../helpers/compare.js';
import { runMain } from '../helpers/in-process-cli.js';
import { tempDir } from '../helpers/tmp.js';
import { sleep, waitFor } from '../helpers/wait.js';
import { canonicalRecords, quarantinedRecords, query } from './reliability-helpers.js';

const KEY = 'mint_reliability_kill_storm';
const KILLS = 12;

describe('kill storm', () => {
  let sb: Sandbox | undefined;
  const tmp = tempDir('docs-etl-kill-storm-');
  afterAll(async () => {
    await sb?.close();
    tmp.cleanup();
  });

  it(`${KILLS} SIGKILLs at random moments under faults: the warehouse equals the truth exactly`, async () => {
    sb = await startSandbox(defaultSandboxOptions({
      apiKeys: [KEY], conversations: 24_000, seed: 61, latencyMs: 30,
      faultRate: 0.2, faults: ['http5xx', 'reset', 'truncate', 'repeat'], malformedRate: 0.005,
    }));
    const warehouse = join(tmp.dir, 'w.duckdb');
    const args = ['sync', '--warehouse', warehouse, '--rate-limit', '100000/1h'];
    const env = cliEnv({ DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'info' });
    const kinds = { anytime: 0, reading: 0, writing: 0 };
    const moments: string[] = [];
    for (let spawned = 0; moments.length < KILLS && spawned < 40; spawned++) {
      const pagesBefore = served(sb);
      const child = spawnCli(args, env);
      // Three kinds of moment, in turn: anywhere in the process's life (start-up included); while
      // the run reads its window (a request, a retry's backoff); just after a page arrived, while
      // its transaction is being written.
      const kind = (['anytime', 'reading', 'writing'] as const)[spawned % 3]!;
      let delay: number;
      if (kind === 'anytime') delay = 100 + Math.floor(Math.random() * 1400);
      else if (kind === 'reading') {
        await runStarted(child);
        delay = Math.floor(Math.random() * 1000);
      } else {
        const sandbox = sb;
        await waitFor(() => served(sandbox) > pagesBefore || child.exitCode !== null, 60_000);
        delay = Math.floor(Math.random() * 60);
      }
      await sleep(delay);
      child.kill('SIGKILL');
      const r = await child.result;
      if (r.signal === 'SIGKILL') {
        kinds[kind]++;
        moments.push(`${kind}+${delay}ms`);
      } else {
        expect(r.code, r.stderr).toBe(0); // it finished before the kill: a clean run
      }
    }
    expect(moments, moments.join(', ')).toHaveLength(KILLS);
    expect(Math.min(kinds.anytime, kinds.reading, kinds.writing), JSON.stringify(kinds)).toBeGreaterThanOrEqual(3);

    // The finishing run: what the killed processes left is the point, not this run's process (the
    // same main, in-process, without another Node start and DuckDB load).
    const last = await runMain(args, env);
    expect(last.code, last.stderr).toBe(0);

    const truth = sb.truth('demo');
    expect(truth.length).toBeGreaterThan(23_500);
    expect(await warehouseRows(warehouse, 'demo')).toEqual(expectedRows(truth));
    const sources = truth.reduce((n, t) => n + t.sources.length, 0);
    expect(await scalar(warehouse, 'SELECT count(*) FROM sources')).toBe(BigInt(sources));
    expect(await scalar(warehouse,
      'SELECT count(*) FROM sources s ANTI JOIN conversations c ON c.project_id = s.project_id AND c.id = s.conversation_id AND c.occurred_at = s.occurred_at',
    )).toBe(0n);

    const malformed = sb.malformed('demo');
    expect(malformed.length).toBeGreaterThan(50);
    expect(await quarantinedRecords(warehouse)).toEqual(canonicalRecords(malformed));

    const [state] = await query(warehouse, 'SELECT window_to, cursor, high_water FROM sync_state');
    expect(state).toMatchObject({ window_to: null, cursor: null });
    expect(state!.high_water).not.toBeNull();
    expect(await scalar(warehouse, "SELECT count(*) FROM sync_runs WHERE status = 'interrupted'")).toBeGreaterThanOrEqual(BigInt(KILLS / 2));
  }, 180_000);
});

/** Pages (200 responses) the sandbox served so far. */
function served(sandbox: Sandbox): number {
  return sandbox.requestLog(KEY).filter((r) => r.status === 200).length;
}


/** Resolves once the child logged that it opened or resumed its window (or when it ended). */
function runStarted(child: ReturnType<typeof spawnCli>): Promise<void> {
  return new Promise((resolve) => {
    const onData = (d: Buffer) => {
      if (/window started|resuming open window/.test(d.toString())) done();
    };
    const done = () => {
      child.stderr!.off('data', onData);
      resolve();
    };
    child.stderr!.on('data', onData);
    child.once('close', done);
  });
}
