import { Command } from 'commander';
import type { CommandFactory } from './index.js';

// Placeholder until its issue lands; replaced by the real command.
export const statusCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('status').description('(not implemented yet)').action(() => {
    ctx.stderr.write('docs-etl: status is not implemented yet\n');
    setExitCode(1);
  });
