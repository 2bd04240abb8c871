// `docs-etl demo` (what `npm run demo` runs): sandbox → two syncs → the gap views, no key, no
// network. Harmless next to a real setup: its files live apart (state/demo/) and it deletes only
// what an earlier demo created, unless --force.
import { Command, Option } from 'commander';
import { DEFAULT_DEMO_WAREHOUSE } from '../../tools/demo/demo-files.js';
import { intArg } from '../options.js';
import { formatRunLine, formatTable } from '../format.js';
import type { CommandFactory } from './index.js';

export const demoCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('demo')
    .description(`offline demo: sandbox → two syncs into ${DEFAULT_DEMO_WAREHOUSE} → the gap views (no key, no network)`)
    .option('--warehouse <path>', 'demo warehouse, recreated each time; its request log and marker sit beside it', DEFAULT_DEMO_WAREHOUSE)
    .option('--conversations <n>', 'turns of history in the sandbox', intArg(1, 5_000_000), 20_000)
    .addOption(new Option('--force', 'delete the warehouse even if an earlier demo did not create it'))
    .addHelpText('after', `
The demo never touches state/warehouse.duckdb or state/budget. It refuses (exit 2) to delete a warehouse
that an earlier demo did not create (marker: <warehouse>.demo.json) unless --force. --config is accepted
and checked, but the demo never uses the configured warehouse.`)
    .action(async (flags: { warehouse: string; conversations: number; force?: boolean }) => {
      // Logs stay quiet unless asked for: the demo prints its own story on stdout.
      const logger = ctx.env.LOG_LEVEL ? ctx.logger : ctx.logger.child({}, { level: 'warn' });
      // Loaded when the demo runs: it carries the sandbox, which no other command needs.
      const { runDemo } = await import('../../tools/demo/run-demo.js');
      setExitCode(await runDemo({
        warehouse: flags.warehouse, conversations: flags.conversations, force: flags.force === true, out: ctx.stdout, logger, signal: ctx.signal,
        format: { runLine: formatRunLine, table: (rows) => formatTable(rows) },
      }));
    });
