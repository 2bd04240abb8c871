// The default bench (`npm run bench` without --scenario): for each size (default 200k and 1M
// turns) a full sync against the sandbox beside DuckDB's own ingest of the same pages, the sync's
// peak memory, requests against the ideal, the time split, the read snapshot's publish time (bulk
// and steady state), view and report times; then the budget use of a long backfill against a small
// window. Prints a table, then one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchArgs } from './bench-args.js';
import { budgetUtilization, type BudgetResult } from './budget-utilization.js';
import { loadBench, type LoadResult } from './load-bench.js';
import { benchJson, humanReport } from './report.js';

export async function fullSyncBench(args: BenchArgs): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'docs-etl-bench-'));
  const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
  try {
    const sizes: LoadResult[] = [];
    for (const n of args.sizes) sizes.push(await loadBench(n, args.seed, workDir, log, { inProcess: args.syncInProcess, bareNode: args.bareNode }));
    let budget: BudgetResult | null = null;
    if (args.budgetSeconds > 0) {
      log(`budget use: ${args.budgetRate} for ${args.budgetSeconds} s (${args.budgetProcesses} process(es), ${args.budgetTurns.toLocaleString('en-US')} turns of history)`);
      budget = await budgetUtilization({
        workDir, rateLimit: args.budgetRate, durationS: args.budgetSeconds,
        historyTurns: Math.ceil(args.budgetTurns / args.budgetProcesses), processes: args.budgetProcesses,
      });
    }
    process.stdout.write(`${humanReport(sizes, budget)}\n`);
    if (args.keep) process.stdout.write(`work directory kept: ${workDir}\n`);
    process.stdout.write(`${JSON.stringify(benchJson(sizes, budget))}\n`);
  } finally {
    if (!args.keep) rmSync(workDir, { recursive: true, force: true });
  }
}
