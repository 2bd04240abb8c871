// `docs-etl rebuild [--project P]`: re-creates the tables from the raw pages kept with --keep-raw,
// with no API call (after a schema change or a bug fix); says what it replayed.
import { Command } from 'commander';
import { PIPELINES } from '../../../pipelines/index.js';
import { systemClock } from '../../core/clock.js';
import { formatDuration } from '../../core/duration.js';
import { EXIT } from '../../core/errors.js';
import { resolveLocalConfig } from '../../config/sync-config.js';
import type { CommandFactory } from './index.js';

export const rebuildCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('rebuild')
    .description('re-create the tables from the raw pages kept by `sync --keep-raw`, with no API call')
    .option('--project <id>', 'only this project (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .option('--config <file>', 'JSON config (its warehouse, landingDir and DuckDB settings)')
    .addHelpText('after', `
The project's rows and quarantine are replayed from the kept pages with today's contract and SQL.
Coverage the kept pages do not back is dropped: the next sync reads that part again.
Exit codes: 0 done, 1 failed, 2 bad usage (e.g. no kept pages).`)
    .action(async (flags: { project?: string[]; warehouse?: string; config?: string }) => {
      const cfg = resolveLocalConfig(flags, ctx.env);
      for (const w of cfg.warnings ?? []) ctx.stderr.write(`docs-etl: warning: ${w}\n`);
      // The replay's modules (DuckDB, the merge) load only once the settings passed.
      const { runRebuild } = await import('../../sync/run/rebuild.js');
      const rebuilt = await runRebuild({ clock: systemClock, logger: ctx.logger }, { ...cfg, projects: flags.project ?? null }, PIPELINES);
      for (const s of rebuilt) {
        const dropped = s.coverageDroppedMs > 0 ? `; coverage dropped for ${formatDuration(s.coverageDroppedMs)} (the next sync reads it again)` : '';
        ctx.stdout.write(`${s.projectId}/${s.pipeline}: replayed ${s.pages.toLocaleString('en-US')} pages, ${s.rows.toLocaleString('en-US')} rows${dropped}\n`);
      }
      setExitCode(EXIT.ok);
    });
