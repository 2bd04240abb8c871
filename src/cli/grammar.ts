// The rules every command follows, applied in one place (main.ts) so a command added later follows
// them too:
//   - every command takes `--config FILE`. A command that has nothing else to read from it still
//     checks the file (exit 2 when it is bad) and takes its `warehouse` (after --warehouse and
//     DOCS_ETL_WAREHOUSE) and its `baseUrl` (after DOCS_API_BASE_URL);
//   - `--help` shows duration defaults with their unit (26h, not 93600000);
//   - LOG_LEVEL is a pino level, checked before anything runs (even --help).
import { Option, type Command } from 'commander';
import { formatDuration } from '../core/duration.js';
import { UsageError } from '../core/errors.js';
import { durationArg } from './options.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The pino level LOG_LEVEL names (case-insensitive; unset or empty is info); else UsageError. */
export function logLevelOf(env: NodeJS.ProcessEnv): string {
  const raw = env.LOG_LEVEL?.trim() ?? '';
  if (!raw) return 'info';
  const level = raw.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(`LOG_LEVEL "${env.LOG_LEVEL}" is not a log level: use one of ${LOG_LEVELS.join(', ')}`);
  }
  return level;
}

/**
 * Adds `--config` to a command that does not declare it. Before its action runs, the file is
 * loaded and checked; its warehouse fills an unset `--warehouse` unless DOCS_ETL_WAREHOUSE is set,
 * its readPath fills DOCS_ETL_READ_PATH and its baseUrl DOCS_API_BASE_URL when unset (in `env`,
 * the command's own copy).
 */
export function acceptConfigFile(cmd: Command, env: NodeJS.ProcessEnv, warn: (message: string) => void = () => {}): void {
  if (cmd.options.some((o) => o.long === '--config')) return;
  cmd.addOption(new Option('--config <file>', 'JSON config file (checked; this command uses its warehouse, readPath, budgetDir, budget, rateLimit, rereads and baseUrl)'));
  cmd.hook('preAction', async (command) => {
    const path = command.getOptionValue('config') as string | undefined;
    if (path === undefined) return;
    // The config's schema (zod) loads only when a file is given: not for --help, a usage error or a plain run.
    const { loadConfigFile } = await import('../config/config-file.js');
    const file = loadConfigFile(path);
    for (const w of file.pathWarnings) warn(w);
    // The same budget as sync: its folder (DOCS_ETL_BUDGET_DIR still wins) and its rate.
    if (env.DOCS_ETL_BUDGET_DIR === undefined && file.budgetDir) env.DOCS_ETL_BUDGET_DIR = file.budgetDir;
    if (command.options.some((o) => o.long === '--rate-limit') && command.getOptionValue('rateLimit') === undefined && file.rateLimit) {
      command.setOptionValueWithSource('rateLimit', file.rateLimit, 'config');
    }
    const hasWarehouse = command.options.some((o) => o.long === '--warehouse');
    if (hasWarehouse && command.getOptionValue('warehouse') === undefined && !env.DOCS_ETL_WAREHOUSE && file.warehouse) {
      command.setOptionValueWithSource('warehouse', file.warehouse, 'config');
    }
    if (env.DOCS_ETL_READ_PATH === undefined && file.readPath) env.DOCS_ETL_READ_PATH = file.readPath;
    // The budget in Redis (config `budget`) and the re-read schedule, for the commands that read them.
    if (env.DOCS_ETL_BUDGET_URL === undefined && file.budget) env.DOCS_ETL_BUDGET_URL = file.budget;
    if (command.options.some((o) => o.long === '--rereads') && command.getOptionValue('rereads') === undefined && file.rereads) {
      command.setOptionValueWithSource('rereads', file.rereads, 'config');
    }
    const baseUrl = file.baseUrl ?? file.projects[0]?.baseUrl;
    if (env.DOCS_API_BASE_URL === undefined && baseUrl) env.DOCS_API_BASE_URL = baseUrl;
  });
}

/** Duration options whose default is a number of milliseconds show it with a unit in --help. */
export function showDurationDefaults(cmd: Command): void {
  for (const o of cmd.options) {
    if (o.parseArg === durationArg && typeof o.defaultValue === 'number' && o.defaultValueDescription === undefined) {
      o.defaultValueDescription = formatDuration(o.defaultValue);
    }
  }
}
