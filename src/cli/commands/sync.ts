import { Command } from 'commander';
import type { CommandFactory } from './index.js';

// Placeholder until its issue lands; replaced by the real command.
export const syncCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('sync').description('(not implemented yet)').action(() => {
    ctx.stderr.write('docs-etl: sync is not implemented yet\n');
    setExitCode(1);
  });
