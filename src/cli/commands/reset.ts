// `docs-etl reset --project P [--from DATE]`: forget a project, or read it again from a date on.
// Asks before changing anything (or --yes; without a terminal --yes is required).
import { createInterface } from 'node:readline/promises';
import { Command } from 'commander';
import { PIPELINES } from '../../../pipelines/index.js';
import { systemClock } from '../../core/clock.js';
import { formatDuration } from '../../core/duration.js';
import { EXIT, UsageError } from '../../core/errors.js';
import { resolveLocalConfig } from '../../config/sync-config.js';
import { dateArg } from '../options.js';
import type { CommandFactory } from './index.js';

interface ResetFlags {
  project: string;
  pipelines?: string;
  from?: Date;
  yes?: boolean;
  warehouse?: string;
  config?: string;
}

/** Coverage spans: hours and minutes up to two days, days beyond (all history is decades). */
const span = (ms: number) => (ms > 2 * 86_400_000 ? `${Math.round(ms / 86_400_000).toLocaleString('en-US')} days` : formatDuration(ms));

export const resetCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('reset')
    .description('forget a project (rows, quarantine, coverage, checkpoint, landed pages), or with --from read it again from that date')
    .requiredOption('--project <id>', 'the project')
    .option('--pipelines <names>', 'only these pipelines, comma-separated (default all)')
    .option('--from <date>', 'keep the data, but read everything from this date on again (the next sync backfills it)', dateArg)
    .option('--yes', 'do not ask')
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .option('--config <file>', 'JSON config (its warehouse and landingDir)')
    .addHelpText('after', '\nThe run history (sync_runs) is kept. Exit codes: 0 done, 1 failed, 2 bad usage or not confirmed.')
    .action(async (flags: ResetFlags) => {
      const cfg = resolveLocalConfig(flags, ctx.env);
      for (const w of cfg.warnings ?? []) ctx.stderr.write(`docs-etl: warning: ${w}\n`);
      const names = flags.pipelines?.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = names?.filter((n) => !PIPELINES.some((p) => p.name === n)) ?? [];
      if (unknown.length) throw new UsageError(`unknown pipeline ${unknown.join(', ')}: choose from ${PIPELINES.map((p) => p.name).join(', ')}`);
      const request = { projectId: flags.project, pipelines: PIPELINES.filter((p) => !names || names.includes(p.name)), from: flags.from ?? null };
      // DuckDB and the reset's modules load only once the settings passed.
      const { describeReset, runReset } = await import('../../sync/run/reset.js');
      const effects = await describeReset(cfg, request);
      // Pipelines with nothing stored for the project are left out of the question.
      const what = effects.filter((e) => e.rows > 0 || e.coverageMs > 0 || e.landedPages > 0).map((e) => flags.from
        ? `${e.pipeline}: read ${span(e.coverageMs)} of event time again from ${flags.from!.toISOString()} (rows stay)`
        : `${e.pipeline}: delete ${e.rows.toLocaleString('en-US')} rows, ${span(e.coverageMs)} of event time covered, ${e.landedPages} landed pages`).join('; ');
      if (!flags.yes) {
        if (!process.stdin.isTTY || !ctx.stdout.isTTY) throw new UsageError(`reset of "${flags.project}" would ${what}: add --yes to confirm`);
        const rl = createInterface({ input: process.stdin, output: ctx.stdout });
        const answer = await rl.question(`reset of "${flags.project}" will ${what}. Continue? [y/N] `);
        rl.close();
        if (!/^y(es)?$/i.test(answer.trim())) {
          ctx.stdout.write('nothing changed\n');
          setExitCode(EXIT.usage);
          return;
        }
      }
      await runReset({ clock: systemClock }, cfg, request);
      ctx.stdout.write(`${flags.project}: ${flags.from ? `will be read again from ${flags.from.toISOString()} by the next sync` : 'forgotten'}\n`);
      setExitCode(EXIT.ok);
    });
