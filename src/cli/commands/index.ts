// Every command of the CLI. Each module exports a factory: (ctx, setExitCode) => commander Command.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { sandboxCommand } from './sandbox.js';
import { syncCommand } from './sync.js';
import { statusCommand } from './status.js';
import { scheduleCommand } from './schedule.js';
import { exportParquetCommand } from './export-parquet.js';
import { staticExportCommand } from './static-export.js';
import { demoCommand } from './demo.js';
import { queryCommand } from './query.js';
import { rebuildCommand } from './rebuild.js';
import { resetCommand } from './reset.js';
import { doctorCommand } from './doctor.js';
import { initCommand } from './init.js';
import { reportCommand } from './report.js';
import { topicsCommand } from './topics.js';
import { lakeCommand } from './lake.js';

export type CommandFactory = (ctx: CliContext, setExitCode: (code: number) => void) => Command;

export const COMMANDS: CommandFactory[] = [
  syncCommand, statusCommand, queryCommand, reportCommand, rebuildCommand, resetCommand, scheduleCommand, exportParquetCommand, staticExportCommand, sandboxCommand, demoCommand, doctorCommand, initCommand,
  topicsCommand, lakeCommand,
];
