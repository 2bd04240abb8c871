import { Command } from 'commander';
import type { CommandFactory } from './index.js';

// Placeholder until its issue lands; replaced by the real command.
export const exportParquetCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('export-parquet').description('(not implemented yet)').action(() => {
    ctx.stderr.write('docs-etl: export-parquet is not implemented yet\n');
    setExitCode(1);
  });
