// `docs-etl static-export`: start (or resume with --job) a static export job, wait for it, download
// and verify the bundle, record it and its pages in the warehouse, optionally write Helm values.
// Flags, key and base URL are checked with light modules; the export (HTTP client, tar, DuckDB) is
// loaded only after (static-export-action.ts).
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_WAREHOUSE, warehousePath } from '../../core/paths.js';
import { readPathFor } from '../../sync/publish/snapshot.js';
import { UsageError } from '../../core/errors.js';
import { keyFixWarning, normalizeApiKey } from '../../core/secrets.js';
import { DEFAULT_TIMEOUT_MS } from '../../contracts/api-defaults.js';
import { durationArg, intArg, requestTimeoutArg } from '../options.js';
import { checkJobRequest, parsePaths } from '../../static-export/inputs.js';
import { DEFAULT_BASE_URL as DEFAULT_API_BASE_URL } from '../../contracts/api-defaults.js';
import type { CommandFactory } from './index.js';

export const DEFAULT_EXPORTS_DIR = 'state/exports';

export interface StaticExportFlags {
  domain?: string;
  version?: string;
  paths?: string[];
  job?: string;
  out: string;
  warehouse?: string;
  valuesFile?: string;
  timeout: number;
  pollInterval: number;
  keep: number;
  requestTimeout: number;
}

export const staticExportCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('static-export')
    .description('export the documentation site as a static bundle: start a job, wait, download and verify the bundle, record its pages')
    .addOption(new Option('--domain <host>', 'hostname of the deployment, e.g. docs.example.com (no protocol or path)'))
    .addOption(new Option('--version <label>', 'version label of the export (default: the latest published version)'))
    .addOption(new Option('--paths <list>', 'only these page paths, comma-separated, e.g. index,guides/start').argParser(parsePathsArg))
    .addOption(new Option('--job <id>', 'resume an existing job (se_…): fresh link, download, record'))
    .addOption(new Option('--out <dir>', 'bundles go to DIR/<domain>/<jobId>/bundle.tar.gz').default(DEFAULT_EXPORTS_DIR))
    .addOption(new Option('--warehouse <path>', `DuckDB warehouse file (default DOCS_ETL_WAREHOUSE or ${DEFAULT_WAREHOUSE})`))
    .addOption(new Option('--values-file <file>', 'write self-hosted Helm values (staticExport.*) with the presigned bundle link'))
    .addOption(new Option('--timeout <duration>', 'give up waiting after this long (the job keeps running; resume with --job)')
      .default(30 * 60_000, '30m').argParser(durationArg))
    .addOption(new Option('--poll-interval <duration>', 'time between status checks').default(5_000, '5s').argParser(durationArg))
    .addOption(new Option('--keep <n>', 'exports kept per domain; older job directories are deleted').default(5).argParser(intArg(1, 10_000)))
    .addOption(new Option('--request-timeout <duration>',
      'longest time one API request may take, connect, headers and body together (at most 24h); the bundle download may take this plus its size at 64 KiB/s')
      .default(DEFAULT_TIMEOUT_MS, '60s').argParser(requestTimeoutArg))
    .addHelpText('after', `
Environment:
  DOCS_API_KEY       admin API key (required; never written to logs, files or the warehouse)
  DOCS_API_BASE_URL  API base URL (default ${DEFAULT_API_BASE_URL})
  DOCS_ETL_WAREHOUSE default warehouse path
  LOG_LEVEL          pino level for the JSON logs on stderr (default info)

Limits: a bundle over 5 GiB (sizeBytes) or larger than the free space is refused; a download stops at sizeBytes;
the archive is refused when an entry would land outside its root (absolute path, "..", a link leaving it), is a
device or fifo, or when it exceeds 200,000 entries, 1 GiB per entry or 200 times its size expanded. Bundle links
must be https (plain http only for a loopback host); redirects are not followed. A 429's Retry-After is honored for
at least 1s and at most 1h, and never past --timeout.

Exit codes: 0 exported; 1 failed (job failed, API refused, timeout: the message names the job to resume); 2 bad usage.`)
    .action(async (flags: StaticExportFlags) => {
      if (!ctx.env.DOCS_API_KEY?.trim()) throw new UsageError('DOCS_API_KEY is not set: export the admin API key (mint_…) to use static-export');
      const { key: apiKey, fixes } = normalizeApiKey(ctx.env.DOCS_API_KEY, 'DOCS_API_KEY');
      if (fixes.length) ctx.logger.warn(keyFixWarning('DOCS_API_KEY', fixes));
      const baseUrl = ctx.env.DOCS_API_BASE_URL?.trim() || DEFAULT_API_BASE_URL;
      if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) throw new UsageError(`DOCS_API_BASE_URL "${baseUrl}" is not an http(s) URL`);
      const warehouse = warehousePath(flags.warehouse, ctx.env);
      // The run checks them again (for its other callers); here, before its modules load.
      checkJobRequest({ jobId: flags.job, paths: flags.paths, domain: flags.domain });
      const { runStaticExportCommand } = await import('./static-export-action.js');
      await runStaticExportCommand(ctx, setExitCode, flags, { apiKey, baseUrl, warehouse, readPath: readPathFor(warehouse, ctx.env) });
    });

function parsePathsArg(value: string): string[] {
  try {
    return parsePaths(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
