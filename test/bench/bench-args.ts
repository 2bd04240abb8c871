// Flags of `npm run bench` (node .bench-build/test/bench/main.js, built by tsconfig.bench.json).
import { Command, InvalidArgumentError, Option } from 'commander';
import { intArg } from '../../src/cli/options.js';

export interface BenchArgs {
  /** History sizes measured, one full sync each (side by side in one run). */
  sizes: number[];
  seed: number;
  syncInProcess: boolean;
  /** Also run each full sync with Node's default flags (`node bin/docs-etl.js`), beside the launcher's. */
  bareNode: boolean;
  budgetSeconds: number;
  budgetRate: string;
  budgetTurns: number;
  budgetProcesses: number;
  keep: boolean;
  /** `day`: the virtual-day scenario of the request planner (day-main.ts); absent: the full-sync bench. */
  scenario?: 'day' | 'topics' | 'topics-sync' | 'topics-quality';
  /** Turns a day of the scenario's traffic, one scenario per rate. */
  rates: number[];
  /** Days of hourly runs after the first run; the last is the steady state. */
  days: number;
  /** Unanswered turns of the topic scenario, one measurement each. */
  topicTurns: number[];
  /** Distinct questions the topics scenario's period draws from (unset: nearly every turn its own). */
  topicDistinct?: number;
}

/** "30000,100000,1e6" or "30k,100k,1m": turns a day, each from 1,000 to 10,000,000. */
export function parseRates(v: string): number[] {
  const rates = v.split(',').map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([km]?)\s*$/i.exec(part);
    const n = m ? Math.round(Number(m[1]) * ({ k: 1e3, m: 1e6 }[m[2]!.toLowerCase() as 'k' | 'm'] ?? 1)) : NaN;
    if (!(n >= 1000 && n <= 10_000_000)) throw new InvalidArgumentError(`expected turns a day from 1000 to 10000000 (e.g. 30000,100k,1m), got "${part}"`);
    return n;
  });
  return rates;
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
    .option('--bare-node', 'also run each full sync with Node\'s default flags, as `node bin/docs-etl.js` does (default: the launcher\'s flags and the container\'s)', false)
    .option('--budget-seconds <s>', 'length of the budget measurement (0 skips it)', intArg(0, 3600), 60)
    .option('--budget-rate <n/window>', 'rate limit of the budget measurement (sandbox and client); 100/20s keeps the loader (5 pages/s) out of the measurement on a 2-core machine', '100/20s')
    .option('--budget-turns <n>', 'history per project of the budget measurement (must outlast the run)', intArg(1000, 1_000_000), 700_000)
    .option('--budget-processes <n>', 'sync processes sharing the budget in the budget measurement', intArg(1, 8), 1)
    .option('--keep', 'keep the work directory (warehouse, page files)', false)
    .addOption(new Option('--scenario <name>', 'run a scenario instead: day = a virtual day of hourly runs per rate (issue 16); topics = the gap topic step at --topic-turns; topics-sync = whole hourly syncs with the first of --topic-turns in the period; topics-quality = the topics on the labelled sets').choices(['day', 'topics', 'topics-sync', 'topics-quality']))
    .option('--rates <list>', 'turns a day of the day scenario, comma-separated', parseRates, [30_000, 100_000, 1_000_000])
    .option('--topic-turns <list>', 'unanswered turns of the topics scenario (topic step time and peak RSS), comma-separated', parseRates, [100_000, 1_000_000])
    .option('--topic-distinct <n>', 'distinct questions the topics scenario\'s period draws from, e.g. 200k with --topic-turns 1m (default: nearly every turn its own)', (v) => parseRates(v)[0]!)
    .option('--days <n>', 'days of hourly runs of the day scenario; the last is the steady state (the sandbox serves 7)', intArg(2, 6), 2);
  cmd.parse(argv, { from: 'node' });
  const o = cmd.opts<Omit<BenchArgs, 'sizes'> & { n: number[] }>();
  return { ...o, sizes: o.n };
}
