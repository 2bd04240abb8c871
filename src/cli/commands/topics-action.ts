// The `topics` command's work, loaded only once its options and settings passed
// (src/cli/commands/topics.ts): a usage error never loads DuckDB or the topic step.
import { systemClock } from '../../core/clock.js';
import { EXIT, UsageError } from '../../core/errors.js';
import type { LocalConfig } from '../../config/sync-config.js';
import type { TopicSettings } from '../../outputs/topics/topic-settings.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { explainReadError, openWarehouse } from '../../warehouse/warehouse.js';
import { acquireWriterLock } from '../../warehouse/writer-lock.js';
import { openReader } from '../../sync/publish/open-reader.js';
import { publishRead } from '../../sync/publish/read-surface.js';
import { LAKE_TABLES } from '../lake-tables.js';
import { updateGapTopics } from '../../outputs/topics/update-topics.js';
import { stepMemoryLimit } from '../../warehouse/memory-pool.js';
import { queryJsonConverter } from '../../outputs/query/json-values.js';
import { formatCsv, formatFitted, formatJson } from '../format-rows.js';
import type { CliContext } from '../context.js';
import type { TopicsFlags } from './topics.js';

/** `docs-etl topics` (`settings` with --rebuild: the topic step runs first): prints the top topics; sets the exit code. */
export async function runTopicsCommand(ctx: CliContext, setExitCode: (code: number) => void, flags: TopicsFlags, cfg: LocalConfig, settings: TopicSettings | null): Promise<void> {
  if (settings) {
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
}
