// `docs-etl query "SQL"` / `--file q.sql`: read-only SQL on the published read snapshot, so it never
// waits for a sync and never blocks one. A SQL error or a write statement is exit 2.
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { EXIT, UsageError } from '../../core/errors.js';
import { warehousePath } from '../../core/paths.js';
import { explainReadError } from '../../load/warehouse.js';
import { openReader } from '../../publish/open-reader.js';
import { readPathFor } from '../../publish/snapshot.js';
import { runReadOnly } from '../../query/run-query.js';
import { formatCsv, formatFitted, formatJson, type RowFormat } from '../format-rows.js';
import type { CommandFactory } from './index.js';

interface QueryFlags {
  file?: string;
  format?: RowFormat;
  warehouse?: string;
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
    .addHelpText('after', `
Examples:
  docs-etl query "SELECT * FROM daily_unanswered_rate ORDER BY day DESC LIMIT 7"
  docs-etl query --file gaps.sql --format csv > gaps.csv
Exit codes: 0 done, 1 the snapshot cannot be opened, 2 bad usage, a SQL error or a write statement.`)
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
      const reader = await openReader({ warehouse: path, readPath: readPathFor(path, ctx.env) });
      try {
        const results = await runReadOnly(reader.conn, sql).catch((err: unknown) => {
          throw explainReadError(path, err);
        });
        const format = flags.format ?? (ctx.stdout.isTTY ? 'table' : 'csv');
        const width = (ctx.stdout as { columns?: number }).columns ?? 120;
        for (const r of results) {
          ctx.stdout.write(format === 'csv' ? formatCsv(r) : format === 'json' ? formatJson(r) : formatFitted(r, width));
        }
        setExitCode(EXIT.ok);
      } finally {
        reader.close();
      }
    });
