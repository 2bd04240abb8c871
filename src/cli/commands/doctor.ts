// `docs-etl doctor`: is this setup ready to sync? One line per check with ✓/✗ and the fix; exit 1
// when something is wrong. It sends one analytics request per project (through the shared request
// budget) and one static export request per organization.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { systemClock } from '../../core/clock.js';
import { EXIT } from '../../core/errors.js';
import { PACKAGE_ROOT, warehousePath } from '../../core/paths.js';
import { checkProjectId } from '../../core/project-id.js';
import type { RateLimit } from '../../core/duration.js';
import { minNodeVersion } from '../../tools/doctor/node-support.js';
import { durationArg, rateLimitArg } from '../options.js';
import type { CommandFactory } from './index.js';

interface DoctorFlags {
  config?: string;
  warehouse?: string;
  project?: string;
  rateLimit?: RateLimit;
  timeout: number;
  json?: boolean;
}

export const doctorCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('doctor')
    .description('check a setup in one go: config, key, API and project, static export, budget, warehouse, disk, versions')
    .option('--config <file>', 'JSON config listing several projects / organizations')
    .option('--warehouse <path>', 'DuckDB warehouse file (default state/warehouse.duckdb)')
    .option('--project <id>', 'check only this project (default DOCS_PROJECT_ID, or every project of --config)')
    .option('--rate-limit <n/window>', 'the budget to check against (default 100/1h, or the config\'s)', rateLimitArg)
    .addOption(new Option('--timeout <duration>', 'longest wait for each API answer').default(15_000).argParser(durationArg))
    .option('--json', 'one JSON object on stdout: {ok, checks: [{check, subject, status, detail, fix, data}]}')
    .addHelpText('after', `
Each check prints one line: ✓ fine, ✗ wrong (with → fix: …), ! worth knowing, - skipped.
It spends one request of the organization's budget per project (GET …/assistant?limit=1).
Environment: DOCS_API_KEY, DOCS_PROJECT_ID, DOCS_API_BASE_URL, DOCS_ETL_WAREHOUSE, DOCS_ETL_BUDGET_DIR, DOCS_ETL_BUDGET_URL, LOG_LEVEL.
Exit codes: 0 every check passed (warnings allowed), 1 something is wrong, 2 bad usage.`)
    .action(async (flags: DoctorFlags) => {
      // Bad flags are usage errors (exit 2); everything else is a finding.
      warehousePath(flags.warehouse, ctx.env);
      if (flags.project !== undefined) checkProjectId(flags.project, '--project');
      // The checks' modules (DuckDB, the HTTP client, the budget stores) load only after the flags passed.
      const [{ runDoctor }, { formatReport, reportJson }] = await Promise.all([import('../../tools/doctor/run-doctor.js'), import('../../tools/doctor/report.js')]);
      const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
      const report = await runDoctor(
        { env: ctx.env, clock: systemClock, logger: ctx.logger, version: pkg.version, minNode: minNodeVersion() },
        { config: flags.config, warehouse: flags.warehouse, project: flags.project, rateLimit: flags.rateLimit, timeoutMs: flags.timeout },
      );
      ctx.stdout.write(flags.json ? reportJson(report) : formatReport(report));
      setExitCode(report.ok ? EXIT.ok : EXIT.failed);
    });
