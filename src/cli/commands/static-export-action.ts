// The `static-export` command's work, loaded only once its flags, key and base URL have been checked
// (src/cli/commands/static-export.ts): a usage error never loads the HTTP client, tar or DuckDB.
import { systemClock } from '../../core/clock.js';
import { EXIT, FatalError, StoppedError } from '../../core/errors.js';
import { runStaticExport, type StaticExportResult } from '../../static-export/run.js';
import { progressLine } from '../../static-export/progress-line.js';
import type { CliContext } from '../context.js';
import type { StaticExportFlags } from './static-export.js';

/** What the command resolved before this module loaded. */
export interface StaticExportSettings { apiKey: string; baseUrl: string; warehouse: string; readPath: string }

/** One `docs-etl static-export`: the job, its bundle, its summary on stdout; sets the exit code. */
export async function runStaticExportCommand(ctx: CliContext, setExitCode: (code: number) => void, flags: StaticExportFlags, s: StaticExportSettings): Promise<void> {
  const result = await runStaticExport({
    domain: flags.domain, version: flags.version, paths: flags.paths, jobId: flags.job,
    outDir: flags.out, warehousePath: s.warehouse, readPath: s.readPath, valuesFile: flags.valuesFile,
    timeoutMs: flags.timeout, pollIntervalMs: flags.pollInterval, keep: flags.keep, requestTimeoutMs: flags.requestTimeout,
  }, {
    baseUrl: s.baseUrl, apiKey: s.apiKey, clock: systemClock, logger: ctx.logger, signal: ctx.signal, progress: progressLine(ctx.stderr),
  }).catch((err: unknown) => {
    // Interrupted means not exported: exit 1, so `static-export … && helm upgrade …` stops too.
    throw err instanceof StoppedError ? new FatalError(err.message) : err;
  });
  ctx.stdout.write(summary(result));
  setExitCode(EXIT.ok);
}

export function summary(r: StaticExportResult): string {
  const lines = [
    `static export ${r.jobId} of ${r.domain}${r.version ? ` (version ${r.version})` : ''}: completed`,
    `  pages:   ${r.pages}`,
    `  size:    ${r.sizeBytes} bytes`,
    `  sha256:  ${r.sha256}`,
    `  archive: ${r.archivePath}`,
  ];
  if (r.valuesFile) lines.push(`  values:  ${r.valuesFile} (bundleUrl expires at ${r.bundleExpiresAt})`);
  if (r.removedExports.length) lines.push(`  removed: ${r.removedExports.length} older export(s)`);
  return `${lines.join('\n')}\n`;
}
