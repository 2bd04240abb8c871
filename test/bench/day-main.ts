// `npm run bench -- --scenario day [--rates 30000,100000,1000000] [--days 2] [--seed N] [--keep]`: the
// virtual-day scenario (day-scenario.ts) once per rate, one after the other in this process, each
// with its own sandbox, clock, warehouse and budget folder. Progress goes to stderr; stdout gets,
// per rate, the table of runs and the table of targets, and as its LAST line one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchArgs } from './bench-args.js';
import { dayJson, runsTable, targetsTable } from './day-report.js';
import { RUNS_PER_DAY, runDayScenario } from './day-scenario.js';

/** S: a fixed instant on the hour, so the same seed gives the same data and the same runs. */
export const DAY_SCENARIO_START = Date.UTC(2026, 0, 5, 0, 0, 0);
/** The steady run whose freshness is also computed on its own instant's truth and snapshot: the 12th. */
const crossCheckRun = (days: number) => 1 + RUNS_PER_DAY * (days - 1) + 11;

export async function dayScenarioMain(args: BenchArgs): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'docs-etl-day-'));
  const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
  const results: Record<string, unknown>[] = [];
  try {
    for (const rate of args.rates) {
      log(`day scenario at ${rate.toLocaleString('en-US')} turns/day, ${args.days} days of hourly runs`);
      const d = await runDayScenario({
        rate, seed: args.seed, workDir: join(workDir, `rate-${rate}`), startMs: DAY_SCENARIO_START, days: args.days, crossCheckRun: crossCheckRun(args.days), log,
      });
      process.stdout.write(`\n== ${rate.toLocaleString('en-US')} turns/day: runs ==\n${runsTable(d)}\n`);
      process.stdout.write(`\n== ${rate.toLocaleString('en-US')} turns/day: targets (${d.seconds.total.toFixed(0)} s real) ==\n${targetsTable(d)}\n`);
      results.push(dayJson(d));
    }
    if (args.keep) process.stdout.write(`work directory kept: ${workDir}\n`);
    process.stdout.write(`${JSON.stringify({ scenario: 'day', seed: args.seed, days: args.days, rates: results })}\n`);
  } finally {
    if (!args.keep) rmSync(workDir, { recursive: true, force: true });
  }
}
