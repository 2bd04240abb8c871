import { Command } from 'commander';
import { runDemo } from '../../demo/run-demo.js';
import { intArg } from '../options.js';
import type { CommandFactory } from './index.js';

export const demoCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('demo')
    .description('offline demo: sandbox → two syncs into state/demo.duckdb → the gap views (no key, no network)')
    .option('--warehouse <path>', 'demo warehouse (recreated each time)', 'state/demo.duckdb')
    .option('--conversations <n>', 'turns of history in the sandbox', intArg(1, 5_000_000), 20_000)
    .action(async (flags: { warehouse: string; conversations: number }) => {
      // Logs stay quiet unless asked for: the demo prints its own story on stdout.
      const logger = ctx.env.LOG_LEVEL ? ctx.logger : ctx.logger.child({}, { level: 'warn' });
      setExitCode(await runDemo({ warehouse: flags.warehouse, conversations: flags.conversations, out: ctx.stdout, logger, signal: ctx.signal }));
    });
