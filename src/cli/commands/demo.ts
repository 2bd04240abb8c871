import { Command } from 'commander';
import type { CommandFactory } from './index.js';

// Placeholder until its issue lands; replaced by the real command.
export const demoCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('demo').description('(not implemented yet)').action(() => {
    ctx.stderr.write('docs-etl: demo is not implemented yet\n');
    setExitCode(1);
  });
