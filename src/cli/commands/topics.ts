// `docs-etl topics`: the top gap topics (docs/topics.md) from the read snapshot, as a table, CSV or
// JSON like `query`. `--rebuild` computes every project's topics now (the writer's lock, then a
// publish), e.g. after changing --topic-period, instead of waiting for the next sync.
import { Command, InvalidArgumentError, Option } from 'commander';
import { systemClock } from '../../core/clock.js';
import { EXIT, UsageError } from '../../core/errors.js';
import { loadConfigFile } from '../../config/config-file.js';
import { resolveLocalConfig, topicSettings } from '../../config/sync-config.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { explainReadError, openWarehouse } from '../../warehouse/warehouse.js';
import { acquireWriterLock } from '../../warehouse/writer-lock.js';
import { openReader } from '../../sync/publish/open-reader.js';
import { publishRead } from '../../sync/publish/read-surface.js';
import { LAKE_TABLES } from '../lake-tables.js';
import { updateGapTopics } from '../../outputs/topics/update-topics.js';
import { stepMemoryLimit } from '../../warehouse/memory-pool.js';
import { queryJsonConverter } from '../../outputs/query/json-values.js';
import { formatCsv, formatFitted, formatJson, type RowFormat } from '../format-rows.js';
import { durationArg, intArg } from '../options.js';
import type { CommandFactory } from './index.js';

interface TopicsFlags {
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
      if (flags.rebuild) {
        const settings = topicSettings(flags.topicPeriod, flags.config ? loadConfigFile(flags.config) : null);
        const lock = acquireWriterLock(cfg.warehouse, 'docs-etl topics --rebuild', systemClock.now());
        const wh = await openWarehouse(cfg.warehouse, { ...cfg.duckdb, readPath: cfg.readPath });
        try {
          const known = (await wh.conn.runAndReadAll(sqlFile('topics/known-projects.sql'))).getRows().map((r) => String(r[0]));
          if (flags.project !== undefined && !known.includes(flags.project)) {
            throw new UsageError(`project "${flags.project}" has no assistant turns in ${cfg.warehouse}${known.length ? ` (it has: ${known.join(', ')})` : ''}`);
          }
          const update = await updateGapTopics({ clock: systemClock, logger: ctx.logger }, wh.conn, flags.project ? [flags.project] : known, settings, { force: true, pool: stepMemoryLimit(cfg.duckdb.memoryLimit) });
          if (update.failed.length) throw new Error(`gap topics failed for ${update.failed.map((f) => `${f.projectId} (${f.error})`).join(', ')}`);
          await publishRead(wh.conn, wh.path, { ...cfg, lakeTables: LAKE_TABLES }, systemClock.now());
          for (const r of update.results) {
            ctx.stderr.write(`${r.projectId}: ${r.topics.toLocaleString('en-US')} topics from ${r.questions.toLocaleString('en-US')} questions (${r.turns.toLocaleString('en-US')} turns)`
              + `${r.questionsSkipped ? `, ${r.questionsSkipped.toLocaleString('en-US')} least asked over the cap` : ''} in ${(r.durationMs / 1000).toFixed(1)}s, peak RSS ${Math.round(r.peakRssBytes / 1048576)} MB\n`);
          }
        } finally {
          wh.close();
          lock.release();
        }
      }
      const reader = await openReader({ warehouse: cfg.warehouse, readPath: cfg.readPath });
      try {
        const r = await reader.conn.runAndReadAll(sqlFile('topics/top.sql'), { project: flags.project ?? null, limit: flags.limit }).catch((err: unknown) => {
          if (/gap_topics_top/.test(String(err))) throw new UsageError('the snapshot has no gap topics yet: run `docs-etl sync` (or `docs-etl topics --rebuild`) with this docs-etl first');
          throw explainReadError(cfg.warehouse, err);
        });
        const format = flags.format ?? (ctx.stdout.isTTY ? 'table' : 'csv');
        const rows = format === 'json' ? r.convertRowObjects(queryJsonConverter) : r.getRowObjectsJson();
        const result = { columns: r.columnNames(), rows: rows as Record<string, unknown>[] };
        const width = (ctx.stdout as { columns?: number }).columns ?? 120;
        // A terminal table names a topic by its medoid and terms; the most asked wording (label, typos
        // kept) stays in csv and json, where every column keeps its meaning.
        const named = ['medoid', 'distinctive_terms'];
        const rest = result.columns.filter((c) => c !== 'label' && !named.includes(c));
        const table = { ...result, columns: [...rest.slice(0, rest.indexOf('language') + 1), ...named, ...rest.slice(rest.indexOf('language') + 1)] };
        ctx.stdout.write(format === 'csv' ? formatCsv(result) : format === 'json' ? formatJson(result) : formatFitted(table, width, ['medoid']));
        setExitCode(EXIT.ok);
      } finally {
        reader.close();
      }
    });
