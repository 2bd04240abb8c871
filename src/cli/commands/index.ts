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
import { reportCommand } from './report.js';

export type CommandFactory = (ctx: CliContext, setExitCode: (code: number) => void) => Command;

export const COMMANDS: CommandFactory[] = [
  syncCommand, statusCommand, scheduleCommand, exportParquetCommand, staticExportCommand, reportCommand, sandboxCommand, demoCommand,
];
