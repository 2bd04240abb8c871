// Flags of `npm run bench` (node dist/src/bench/main.js).
import { Command } from 'commander';
import { intArg } from '../cli/options.js';

export interface BenchArgs {
  /** History sizes measured, one full sync each (side by side in one run). */
  sizes: number[];
  seed: number;
  syncInProcess: boolean;
  budgetSeconds: number;
  budgetRate: string;
  budgetTurns: number;
  budgetProcesses: number;
  keep: boolean;
}

function sizesArg(v: string): number[] {
  return v.split(',').map((s) => intArg(1, 4_000_000)(s.trim()));
}

export function parseBenchArgs(argv: string[]): BenchArgs {
  const cmd = new Command('bench')
    .description('throughput, memory, requests and view times of a full sync against the sandbox; budget use of a long backfill')
    .option('--n <turns>', 'turns to sync, one measurement per size (comma-separated)', sizesArg, [200_000, 1_000_000])
    .option('--seed <n>', 'sandbox seed', intArg(0, 2 ** 32 - 1), 42)
    .option('--sync-in-process', 'run the sync in the bench process, beside the sandbox (default: a child process)', false)
    .option('--budget-seconds <s>', 'length of the budget measurement (0 skips it)', intArg(0, 3600), 60)
    .option('--budget-rate <n/window>', 'rate limit of the budget measurement (sandbox and client); 100/20s keeps the loader (5 pages/s) out of the measurement on a 2-core machine', '100/20s')
    .option('--budget-turns <n>', 'history per project of the budget measurement (must outlast the run)', intArg(1000, 1_000_000), 700_000)
    .option('--budget-processes <n>', 'sync processes sharing the budget in the budget measurement', intArg(1, 8), 1)
    .option('--keep', 'keep the work directory (warehouse, page files)', false);
  cmd.parse(argv, { from: 'node' });
  const o = cmd.opts<Omit<BenchArgs, 'sizes'> & { n: number[] }>();
  return { ...o, sizes: o.n };
}
