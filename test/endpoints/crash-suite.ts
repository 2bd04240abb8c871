// Exactly-once across SIGKILL, for each pipeline (crash-events.test.ts, crash-daily.test.ts): the
// real CLI syncs one pipeline and is killed at random moments after its first request reached the
// sandbox, a few times; then runs complete. The pipeline's table must equal the sandbox truth
// exactly: no row twice, none missing, and each malformed record in quarantine once.
//
// The sandbox runs in this process with its time frozen (its sleeps, the latency, are real): its
// data is a function of its clock, so what the killed and the final runs read is one truth. The
// CLI plans with the real clock; the day pipelines read the complete UTC days from --from to today.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINES } from '../../pipelines/index.js';
import type { PipelineDefinition } from '../../src/sync/pipeline/definition.js';
import { mulberry32 } from '../../src/tools/sandbox/prng.js';
import { defaultSandboxOptions, startSandbox, type Sandbox } from '../../src/tools/sandbox/index.js';
import { cliEnv, runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { sleep, waitFor } from '../helpers/wait.js';
import { DAY_MS, actualAndExpected, completeDays, frozenClock, query, utcMidnight, type PipelineName } from './exports-helpers.js';

export function describeCrashes(pipelines: PipelineName[]): void {
  const NOW = Date.now();
  // A midnight 6 days back: the sandbox's 5 days of history and an empty day before it.
  const FROM = utcMidnight(NOW) - 6 * DAY_MS;
  const KILLS = 2;
  /** A site where views and visitors need two pages a day, searches are cut at 100 terms, by-page splits on busy days. */
  const SITE = { pages: 400, feedbackPerDay: 150, searchesPerDay: 3000, viewsPerDay: 20_000 };
  const keyOf = (pipeline: string) => `mint_exports_crash_${pipeline}`;
  const rng = mulberry32(NOW % 2 ** 31);

  let sb: Sandbox;
  let tmp: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    tmp = tempDir('docs-etl-exports-crash-');
    sb = await startSandbox(defaultSandboxOptions({
      apiKeys: pipelines.map(keyOf), conversations: 3000, historyDays: 5, seed: 1311, latencyMs: 25, malformedRate: 0.01,
      site: SITE, clock: frozenClock(NOW),
    }));
  });
  afterAll(async () => {
    await sb?.close();
    tmp?.cleanup();
  });

  describe.concurrent('exactly once across SIGKILL and re-runs', () => {
    it.each(pipelines.map((p) => [p]))('%s', async (name) => {
      const pipeline = name as PipelineName;
      const key = keyOf(pipeline);
      const warehouse = join(tmp.dir, pipeline, 'w.duckdb');
      // Each run its own budget folder: a process killed while it held the request log's lock leaves
      // it to go stale (10 s) before the next run can take it, and the budget is not what this is about.
      let runNo = 0;
      const env = () => cliEnv({
        DOCS_API_BASE_URL: sb.url, DOCS_API_KEY: key, DOCS_PROJECT_ID: 'demo', DOCS_PIPELINES: pipeline, LOG_LEVEL: 'warn',
        DOCS_ETL_BUDGET_DIR: join(tmp.dir, pipeline, `budget-${runNo++}`),
      });
      const args = ['sync', '--warehouse', warehouse, '--rate-limit', '10000/1h', '--from', new Date(FROM).toISOString()];
      let kills = 0;
      for (let i = 0; i < KILLS; i++) {
        const before = sb.requestLog(key).length;
        const child = spawnCli(args, env());
        // Kill inside the run, after its first, second or third request arrived (not during a slow
        // machine's start-up), at a random moment of the page's handling: fetching, landing, merging.
        const requests = 1 + Math.floor(rng() * 3);
        await waitFor(() => sb.requestLog(key).length >= before + requests || child.exitCode !== null, 20_000);
        await sleep(Math.floor(rng() * 60));
        child.kill('SIGKILL');
        if ((await child.result).signal === 'SIGKILL') kills++;
      }
      // The final run completes what the killed ones left. Feedback entries without createdAt are
      // read only by a sweep, planned once the history has no gap: one more run after that.
      const definition: PipelineDefinition = PIPELINES.find((p) => p.name === pipeline)!;
      const runs = definition.time.undated ? 2 : 1;
      for (let i = 0; i < runs; i++) {
        const r = await runCli(args, env());
        expect(r.code, r.stderr).toBe(0);
      }
      const end = Date.now();

      expect(kills, 'runs really killed (not finished before the signal)').toBeGreaterThanOrEqual(1);
      expect(await query(warehouse, "SELECT count(*) AS n FROM sync_runs WHERE status = 'interrupted'")).not.toEqual([{ n: 0 }]);
      const { actual, expected } = await actualAndExpected(sb, warehouse, pipeline, 'demo', completeDays(FROM, end));
      expect(expected.length).toBeGreaterThan(0);
      expect(actual).toEqual(expected);
      // Each malformed record once, however often its page was re-read after a kill.
      const malformed = pipeline === 'assistant_conversations' ? sb.malformed('demo').length : pipeline === 'feedback' ? sb.feedbackMalformed('demo').length : 0;
      if (pipeline === 'assistant_conversations' || pipeline === 'feedback') expect(malformed).toBeGreaterThan(0);
      expect(await query(warehouse, 'SELECT pipeline, count(*) AS n FROM quarantine GROUP BY ALL'))
        .toEqual(malformed ? [{ pipeline, n: malformed }] : []);
    }, 60_000);
  });
}
