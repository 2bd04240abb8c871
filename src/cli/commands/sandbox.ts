import { Command } from 'commander';
import type { CommandFactory } from './index.js';

// Placeholder until its issue lands; replaced by the real command.
export const sandboxCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('sandbox').description('(not implemented yet)').action(() => {
    ctx.stderr.write('docs-etl: sandbox is not implemented yet\n');
    setExitCode(1);
  });
