// Every command of the CLI, by name, loaded only when it runs. Each module exports a factory:
// (ctx, setExitCode) => commander Command. A run loads the one command it names (`docs-etl query`
// does not load the lake's S3 client, the report's charts or the metrics registry: about 0.8 s of
// start-up per process); `--help`, no command or an unknown one loads them all (the listing and
// commander's suggestions need every command).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export type CommandFactory = (ctx: CliContext, setExitCode: (code: number) => void) => Command;

/** Name -> its module's factory, in the order `--help` lists them. */
export const COMMANDS: Readonly<Record<string, () => Promise<CommandFactory>>> = {
  sync: async () => (await import('./sync.js')).syncCommand,
  status: async () => (await import('./status.js')).statusCommand,
  query: async () => (await import('./query.js')).queryCommand,
  report: async () => (await import('./report.js')).reportCommand,
  rebuild: async () => (await import('./rebuild.js')).rebuildCommand,
  reset: async () => (await import('./reset.js')).resetCommand,
  schedule: async () => (await import('./schedule.js')).scheduleCommand,
  'export-parquet': async () => (await import('./export-parquet.js')).exportParquetCommand,
  'static-export': async () => (await import('./static-export.js')).staticExportCommand,
  sandbox: async () => (await import('./sandbox.js')).sandboxCommand,
  demo: async () => (await import('./demo.js')).demoCommand,
  doctor: async () => (await import('./doctor.js')).doctorCommand,
  init: async () => (await import('./init.js')).initCommand,
  topics: async () => (await import('./topics.js')).topicsCommand,
  lake: async () => (await import('./lake.js')).lakeCommand,
};

/**
 * The factories a command line needs: the command it names (the first word that is not a root
 * option: the root has only -V/--version and -h/--help, which take no value), else every command;
 * none for the version.
 */
export async function commandsFor(args: readonly string[]): Promise<CommandFactory[]> {
  if (args[0] === '-V' || args[0] === '--version') return [];
  const first = args.find((a) => !a.startsWith('-'));
  const names = first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
  return Promise.all(names.map((n) => COMMANDS[n]!()));
}
