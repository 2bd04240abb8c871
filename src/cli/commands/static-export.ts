import { Command } from 'commander';
import type { CommandFactory } from './index.js';

// Placeholder until its issue lands; replaced by the real command.
export const staticExportCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('static-export').description('(not implemented yet)').action(() => {
    ctx.stderr.write('docs-etl: static-export is not implemented yet\n');
    setExitCode(1);
  });
