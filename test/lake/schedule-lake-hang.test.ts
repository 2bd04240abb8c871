// Under `docs-etl schedule --lake s3://…`, an S3 endpoint that accepts connections and never answers
// (helpers/hostile-s3.ts) fails that tick's export within DOCS_ETL_S3_TIMEOUT, and the next tick
// still runs: a hung export never stops the scheduler (the real CLI process; needs `npm run build`).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, spawnCli } from '../helpers/cli.js';
import { startHostileS3, type HostileS3 } from '../helpers/hostile-s3.js';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'mint_schedule_lake_key';
let sb: Sandbox | undefined;
let s3: HostileS3 | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await sb?.close();
  await s3?.close();
  tmp?.cleanup();
});

describe('schedule with a lake on a silent S3 endpoint', () => {
  it('each tick\'s export fails with one line in its run line, and the next tick runs', async () => {
    tmp = tempDir('docs-etl-schedule-lake-');
    sb = await startSandbox(defaultSandboxOptions({ apiKeys: [KEY], conversations: 40, seed: 7 }));
    s3 = await startHostileS3('silent');
    const env = cliEnv({
      DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: KEY, DOCS_PROJECT_ID: 'demo', LOG_LEVEL: 'warn',
      ...(s3.env as Record<string, string>), DOCS_ETL_S3_TIMEOUT: '1s',
    });
    const child = spawnCli(['schedule', '--cron', '* * * * * *', '--warehouse', join(tmp.dir, 'w.duckdb'), '--lake', 's3://lake-bucket/lake'], env);
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += String(d)));
    const failedRuns = () => stdout.split('\n').filter((l) => / sync failed \(exit 1\) in \S+ \(demo\/assistant_conversations succeeded, .*; cannot read s3:\/\/lake-bucket\/lake\/_docs_etl\/lock: no complete answer within 1s \(DOCS_ETL_S3_TIMEOUT\)\); next run /.test(l));
    try {
      // Two ticks whose export hung on S3, each ended by its deadline: the second proves the first did not block the scheduler.
      await waitFor(() => failedRuns().length >= 2, 60_000, 50);
    } finally {
      child.kill('SIGTERM');
    }
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = failedRuns().map((l) => Date.parse(l.split(' ')[0]!));
    expect(second!).toBeGreaterThan(first!);
    expect(s3.counts.get).toBeGreaterThanOrEqual(2);
    expect(r.stdout + r.stderr).not.toContain('hostile-secret-key');
  }, 90_000);
});
