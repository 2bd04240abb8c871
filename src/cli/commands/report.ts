// `docs-etl report --out FILE`: the documentation-gaps report, one self-contained HTML file (charts
// inlined, no network), from the warehouse opened read-only. The warehouse is opened in this one
// place (it becomes the published read snapshot later).
import { Command, InvalidArgumentError, Option } from 'commander';
import { systemClock } from '../../core/clock.js';
import { EXIT } from '../../core/errors.js';
import { warehousePath } from '../../core/paths.js';
import { readPathFor } from '../../sync/publish/snapshot.js';
import { periodDays } from '../../outputs/report/period.js';
import { durationArg } from '../options.js';
import type { CommandFactory } from './index.js';

interface ReportFlags {
  out: string;
  project?: string;
  since: number;
  warehouse?: string;
}

function nonBlank(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('must not be empty');
  return value;
}

/** A duration with a unit ("30" alone is ambiguous here: days? seconds?), at most a year of days. */
function sinceArg(value: string): number {
  if (/^\s*\d+\s*$/.test(value)) throw new InvalidArgumentError(`give a unit, e.g. ${value.trim()}d`);
  const ms = durationArg(value);
  try {
    periodDays(ms);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message.replace(/^--since /, ''));
  }
  return ms;
}

export const reportCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('report')
    .description('write the documentation-gaps report: one self-contained HTML file (charts inlined, opens from disk, no network)')
    .requiredOption('--out <file>', 'HTML file to write (replaced atomically; its folder is created)', nonBlank)
    .option('--project <id>', 'only this project (default: every project in the warehouse, summed)', nonBlank)
    .addOption(new Option('--since <duration>', 'length of the period in whole UTC days ending today, e.g. 7d (at most 366d)')
      .argParser(sinceArg).default(30 * 86_400_000, '30d'))
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .addHelpText('after', `
The period ends with today (UTC, so far); the headline compares it with the same number of days before.
Every number comes from the warehouse's views (README: Report).
Environment: DOCS_ETL_WAREHOUSE (default warehouse path), LOG_LEVEL.
Exit codes: 0 written, 1 failed (missing or damaged warehouse), 2 bad usage.`)
    .action(async (flags: ReportFlags) => {
      // The report's modules and DuckDB load only once the options parsed.
      const [{ checkReportPath, reportSummary, writeReport }, { openReader }, { explainReadError }] = await Promise.all([
        import('../../outputs/report/write-report.js'), import('../../sync/publish/open-reader.js'), import('../../warehouse/warehouse.js'),
      ]);
      checkReportPath(flags.out);
      const path = warehousePath(flags.warehouse, ctx.env);
      const wh = await openReader({ warehouse: path, readPath: readPathFor(path, ctx.env) });
      try {
        const r = await writeReport(wh.conn, flags.out, { projectId: flags.project, sinceMs: flags.since, now: systemClock.now(), generator: 'docs-etl report' });
        ctx.logger.info({ out: r.path, bytes: r.bytes, ms: Math.round(r.ms), turns: r.data.current.turns }, 'report written');
        ctx.stdout.write(`${reportSummary(r)}\n`);
        setExitCode(EXIT.ok);
      } catch (err) {
        throw explainReadError(path, err);
      } finally {
        wh.close();
      }
    });
