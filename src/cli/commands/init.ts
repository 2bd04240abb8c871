// `docs-etl init`: writes the commented starter config. It never overwrites a file without --force.
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { EXIT, UsageError } from '../../core/errors.js';
import { DEFAULT_CONFIG_FILE, STARTER_CONFIG } from '../../config/starter-config.js';
import type { CommandFactory } from './index.js';

interface InitFlags {
  out?: string;
  config?: string;
  force?: boolean;
}

export const initCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('init')
    .description(`write a commented starter config (JSON with comments) to ${DEFAULT_CONFIG_FILE}`)
    .option('--out <file>', `where to write it (default ${DEFAULT_CONFIG_FILE})`)
    .option('--config <file>', 'the same as --out')
    .option('--force', 'overwrite the file if it exists')
    .addHelpText('after', '\nThen: edit the project id, export the key variable, and run `docs-etl doctor --config FILE`.')
    .action((flags: InitFlags) => {
      if (flags.out !== undefined && flags.config !== undefined && flags.out !== flags.config) {
        throw new UsageError('--out and --config name different files: give one');
      }
      const file = flags.out ?? flags.config ?? DEFAULT_CONFIG_FILE;
      if (!file.trim()) throw new UsageError('--out is empty: give a file name');
      try {
        // 'wx' fails if the file exists: no window between a check and the write.
        writeFileSync(file, STARTER_CONFIG, { flag: flags.force ? 'w' : 'wx' });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw new UsageError(`${file} exists: pass --force to overwrite it, or --out another file`);
        throw new UsageError(`cannot write ${file}: ${code ?? (err as Error).message}`);
      }
      ctx.stdout.write(`wrote ${file}: set the project id, export the key variable, then run: docs-etl doctor --config ${file}\n`);
      setExitCode(EXIT.ok);
    });
