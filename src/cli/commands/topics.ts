// `docs-etl topics`: the top gap topics (docs/topics.md) from the read snapshot, as a table, CSV or
// JSON like `query`. `--rebuild` computes every project's topics now (the writer's lock, then a
// publish), e.g. after changing --topic-period, instead of waiting for the next sync.
import { Command, InvalidArgumentError, Option } from 'commander';
// Its options and settings are checked with light modules; the work is loaded after (topics-action.ts).
import { UsageError } from '../../core/errors.js';
import { loadConfigFile } from '../../config/config-file.js';
import { resolveLocalConfig, topicSettings } from '../../config/sync-config.js';
import type { RowFormat } from '../format-rows.js';
import { durationArg, intArg } from '../options.js';
import type { CommandFactory } from './index.js';

export interface TopicsFlags {
  project?: string;
  limit: number;
  format?: RowFormat;
  warehouse?: string;
  config?: string;
  rebuild?: boolean;
  topicPeriod?: number;
}

export const topicsCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('topics')
    .description('the top gap topics: unanswered questions grouped by what they ask (recomputed after each sync)')
    .option('--project <id>', 'only this project')
    .option('--limit <n>', 'topics to print (default 20)', intArg(1, 100_000), 20)
    .addOption(new Option('--format <format>', 'table (default on a terminal), csv (default otherwise) or json').argParser((v) => {
      if (!['table', 'csv', 'json'].includes(v)) throw new InvalidArgumentError('expected table, csv or json');
      return v as RowFormat;
    }))
    .option('--rebuild', 'compute every project\'s topics now (takes the writer lock), then print them')
    .option('--topic-period <duration>', 'with --rebuild: group the unanswered questions of this period (default 90d; config topicPeriod)', durationArg)
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .option('--config <file>', 'JSON config (its warehouse, readPath, topicPeriod and topicMaxQuestions)')
    .addHelpText('after', `
Columns: rank, topic_id (stable across runs while its questions stay mostly the same), label (the
most asked wording, as asked; csv and json only), turns, conversations, trend (last 7 days against
the 7 before), top_pages, then medoid (the most representative question: the table shows it after
language) and distinctive_terms.
Examples:
  docs-etl topics --format table
  docs-etl topics --rebuild --topic-period 30d --format csv > topics.csv
Exit codes: 0 done, 1 the warehouse or snapshot cannot be opened, 2 bad usage.`)
    .action(async (flags: TopicsFlags) => {
      if (flags.topicPeriod !== undefined && !flags.rebuild) throw new UsageError('--topic-period applies with --rebuild (a sync uses its own --topic-period or config topicPeriod)');
      const cfg = resolveLocalConfig(flags, ctx.env);
      const settings = flags.rebuild ? topicSettings(flags.topicPeriod, flags.config ? loadConfigFile(flags.config) : null) : null;
      const { runTopicsCommand } = await import('./topics-action.js');
      await runTopicsCommand(ctx, setExitCode, flags, cfg, settings);
    });
