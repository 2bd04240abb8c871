// The default bench (`npm run bench` without --scenario): a full sync of N turns from the
// in-process sandbox (no rate limit) into a fresh warehouse, end to end through the real client, validation and loader, with the sync in its own
// process; DuckDB's own ingest of the same pages as the ceiling; the views on the result; the
// budget use of a long backfill against a small window. Prints a table, then one JSON line.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSandboxOptions, startSandbox } from '../sandbox/index.js';
import type { BenchArgs } from './bench-args.js';
import { budgetUtilization } from './budget-utilization.js';
import { capturePages } from './capture-pages.js';
import { startChildSync } from './child-sync.js';
import { duckdbCeiling } from './duckdb-ceiling.js';
import { measuredSync, type MeasuredSyncInput } from './measured-sync.js';
import { benchJson, humanReport, type BenchReport } from './report.js';
import { viewTimings } from './view-timings.js';

const SYNC_KEY = 'mint_bench_sync_key';
const CAPTURE_KEY = 'mint_bench_capture_key';
const PROJECT = 'demo';

export async function fullSyncBench(args: BenchArgs): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'docs-etl-bench-'));
  const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

  try {
    log(`generating ${args.n.toLocaleString('en-US')} turns in the sandbox`);
    const sandbox = await startSandbox(defaultSandboxOptions({
      apiKeys: [SYNC_KEY, CAPTURE_KEY], conversations: args.n, seed: args.seed, rateLimit: null,
    }));
    sandbox.malformed(PROJECT); // builds the history now, not during the timed sync
    const warehouse = join(workDir, 'warehouse.duckdb');
    const input: MeasuredSyncInput = {
      baseUrl: sandbox.url, projectId: PROJECT, warehouse, budgetDir: join(workDir, 'budget'),
      rateLimit: '1000000/1h', maxWait: '1m', logLevel: 'warn',
      // A bulk load of the whole history: one head, then everything as one window (see the README's
      // Performance section: with the default 7-day windows each window adds a partial last page).
      from: new Date(Date.now() - 31 * 86_400_000).toISOString(), maxWindow: '32d',
    };
    log(`syncing (${args.syncInProcess ? 'in the bench process' : 'child process'})`);
    const sync = args.syncInProcess
      ? await (async () => {
        const started = performance.now();
        const m = await measuredSync(input, SYNC_KEY);
        return { ...m, wallMs: performance.now() - started, sampledPeakRssKb: m.peakRssKb ?? 0 };
      })()
      : await startChildSync(input, SYNC_KEY).result;
    const run = sync.runs[0];
    if (sync.exitCode !== 0 || !run || run.upserted !== args.n) {
      throw new Error(`the sync did not load ${args.n} turns: exit ${sync.exitCode}, ${JSON.stringify(sync.runs)}`);
    }
    const requests = sandbox.requestLog(SYNC_KEY).filter((r) => r.path.startsWith('/v1/analytics/')).length;

    log('saving the raw pages for the DuckDB ceiling');
    const pages = await capturePages(sandbox.url, CAPTURE_KEY, PROJECT, join(workDir, 'pages'));
    await sandbox.close();
    if (pages.rows !== args.n) throw new Error(`captured ${pages.rows} turns, expected ${args.n}`);
    log(`DuckDB read_json of ${pages.pages} page files`);
    const ceiling = await duckdbCeiling(pages.dir, workDir);

    log('timing the views');
    const views = await viewTimings(warehouse);
    const size = (p: string) => { try { return statSync(p).size; } catch { return 0; } };

    let budget = null;
    if (args.budgetSeconds > 0) {
      log(`budget use: ${args.budgetRate} for ${args.budgetSeconds} s (${args.budgetProcesses} process(es), ${args.budgetTurns.toLocaleString('en-US')} turns of history)`);
      budget = await budgetUtilization({
        workDir, rateLimit: args.budgetRate, durationS: args.budgetSeconds,
        historyTurns: Math.ceil(args.budgetTurns / args.budgetProcesses), processes: args.budgetProcesses,
      });
    }

    const report: BenchReport = {
      n: args.n,
      syncMode: args.syncInProcess ? 'in-process' : 'child',
      rowsPerS: args.n / (sync.wallMs / 1000),
      rowsPerSInProcess: args.n / (sync.syncMs / 1000),
      syncWallS: sync.wallMs / 1000,
      syncS: sync.syncMs / 1000,
      ceiling,
      peakRssMb: (sync.peakRssKb ?? sync.sampledPeakRssKb) / 1024,
      sampledPeakRssMb: sync.sampledPeakRssKb / 1024,
      requests,
      idealRequests: Math.ceil(args.n / 1000),
      warehouseMb: (size(warehouse) + size(`${warehouse}.wal`)) / 1e6,
      views,
      budget,
    };
    process.stdout.write(`${humanReport(report)}\n`);
    if (args.keep) process.stdout.write(`work directory kept: ${workDir}\n`);
    process.stdout.write(`${JSON.stringify(benchJson(report))}\n`);
  } finally {
    if (!args.keep) rmSync(workDir, { recursive: true, force: true });
  }
}
