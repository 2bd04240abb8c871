// `docs-etl query "SQL"` / `--file q.sql`: read-only SQL on the published read snapshot, so it never
// waits for a sync and never blocks one. A SQL error or a write statement is exit 2.
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { formatDuration } from '../../core/duration.js';
import { EXIT, FatalError, UsageError, messageOf } from '../../core/errors.js';
import { warehousePath } from '../../core/paths.js';
import { explainReadError } from '../../warehouse/warehouse.js';
import { readPathFor } from '../../sync/publish/snapshot.js';
import { openQueryReader, parseQueryMemory, QUERY_MEMORY_LIMIT, QUERY_THREADS, QUERY_TIMEOUT_MS } from '../../outputs/query/query-reader.js';
import { runReadOnly } from '../../outputs/query/run-query.js';
import { rowSink, type RowFormat } from '../format-rows.js';
import { OutputClosed } from '../closed-output.js';
import { intArg, timerDurationArg } from '../options.js';
import type { CommandFactory } from './index.js';

interface QueryFlags {
  file?: string;
  format?: RowFormat;
  warehouse?: string;
  timeout: number;
  memoryLimit?: string;
  threads?: number;
  timeZone?: string;
}

export const queryCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('query')
    .description('run read-only SQL on the read snapshot (tables and views); never blocks a sync')
    .argument('[sql]', 'the SQL (or use --file)')
    .option('--file <path>', 'read the SQL from a file')
    .addOption(new Option('--format <format>', 'table (default on a terminal), csv (default otherwise) or json').argParser((v) => {
      if (!['table', 'csv', 'json'].includes(v)) throw new InvalidArgumentError('expected table, csv or json');
      return v as RowFormat;
    }))
    .option('--warehouse <path>', 'the warehouse whose snapshot to read (default state/warehouse.duckdb)')
    .addOption(new Option('--timeout <duration>', 'stop a query running longer than this (1s to 24d)').argParser(timerDurationArg).default(QUERY_TIMEOUT_MS, formatDuration(QUERY_TIMEOUT_MS)))
    .option('--memory-limit <size>', `DuckDB memory limit of the query (default ${QUERY_MEMORY_LIMIT}, at most 16GiB)`, (v: string) => {
      try {
        return parseQueryMemory(v);
      } catch (err) {
        throw new InvalidArgumentError(messageOf(err));
      }
    })
    .option('--threads <n>', `DuckDB threads (default ${QUERY_THREADS})`, intArg(1, 64))
    .option('--time-zone <tz>', 'the session time zone (default UTC)')
    .addHelpText('after', `
The snapshot is opened read-only with no access to other files (read_csv, glob, COPY, ... are refused)
and its settings locked: SET of a DuckDB option is refused; use --time-zone, --threads, --memory-limit.
Ctrl-C or SIGTERM stops a running query at once.
Examples:
  docs-etl query "SELECT * FROM daily_unanswered_rate ORDER BY day DESC LIMIT 7"
  docs-etl query --file gaps.sql --format csv > gaps.csv
Exit codes: 0 done, 1 the snapshot cannot be opened or the query was stopped (signal, --timeout), 2 bad usage, a SQL error or a refused statement.`)
    .action(async (sqlArg: string | undefined, flags: QueryFlags) => {
      if (sqlArg !== undefined && flags.file) throw new UsageError('give the SQL as an argument or with --file, not both');
      let sql = sqlArg;
      if (flags.file) {
        try {
          sql = readFileSync(flags.file, 'utf8');
        } catch (err) {
          throw new UsageError(`cannot read ${flags.file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
        }
      }
      if (!sql?.trim()) throw new UsageError('no SQL: give it as an argument or with --file');
      const path = warehousePath(flags.warehouse, ctx.env);
      const reader = await openQueryReader({
        warehouse: path, readPath: readPathFor(path, ctx.env), memoryLimit: flags.memoryLimit, threads: flags.threads, timeZone: flags.timeZone,
      });
      // Ctrl-C, SIGTERM or the timeout interrupt the running statement (DuckDB stops within a vector).
      let stopped: string | null = null;
      const stop = (why: string) => {
        stopped ??= why;
        reader.interrupt();
      };
      const onAbort = () => stop('interrupted by a signal');
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      if (ctx.signal.aborted) onAbort();
      ctx.logger.debug({ path: reader.path, timeoutMs: flags.timeout }, 'query running');
      const timer = setTimeout(() => stop(`stopped after --timeout ${formatDuration(flags.timeout)}`), flags.timeout);
      try {
        const format = flags.format ?? (ctx.stdout.isTTY ? 'table' : 'csv');
        const width = (ctx.stdout as { columns?: number }).columns ?? 120;
        await runReadOnly(reader.conn, sql, (columns) => rowSink(format, columns, width, ctx.stdout)).catch((err: unknown) => {
          if (err instanceof OutputClosed) throw err;
          if (stopped) throw new FatalError(`query ${stopped}`);
          if (/configuration has been locked/.test(messageOf(err))) {
            throw new UsageError(`${messageOf(err)}: query's settings are fixed; use --time-zone, --threads or --memory-limit`);
          }
          if (/file system operations are disabled|external extensions is disabled/.test(messageOf(err))) {
            throw new UsageError(`${messageOf(err)}: query reads the read snapshot's tables and views only, no other file`);
          }
          throw explainReadError(path, err);
        });
        setExitCode(EXIT.ok);
      } finally {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
        reader.close();
      }
    });
