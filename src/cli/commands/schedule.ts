import { Command } from 'commander';
import type { CommandFactory } from './index.js';

// Placeholder until its issue lands; replaced by the real command.
export const scheduleCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('schedule').description('(not implemented yet)').action(() => {
    ctx.stderr.write('docs-etl: schedule is not implemented yet\n');
    setExitCode(1);
  });
