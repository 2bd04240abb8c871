// `docs-etl doctor`: checks a setup in one go, the way a sync would use it: the configuration,
// each key's format, each project through one budgeted request, static export per organization,
// each organization's budget, the warehouse's lock, disk space, versions and Node's memory
// settings. It never writes to the warehouse; the only state it changes is the request log (its
// own requests, and a 429 it saw).
import { createBudget, type RequestBudget } from '../../budget/budget.js';
import { openBudgetBackend, type BudgetBackend } from '../../budget/open-budget-store.js';
import type { Clock } from '../../core/clock.js';
import { messageOf, UsageError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { warehousePath } from '../../core/paths.js';
import { loadConfigFile } from '../../config/config-file.js';
import { resolveSyncConfig, type ProjectConfig, type SyncConfig, type SyncFlags } from '../../config/sync-config.js';
import { probeProject, probeStaticExport } from './api-probes.js';
import { fail, ok, skip, type CheckResult } from './check.js';
import { checkBudget, checkDisk, checkKeyFormat, checkNodeMemory, checkVersions, checkWarehouse } from './local-checks.js';
import { checkReadSnapshot } from './read-check.js';
import { readPathFor } from '../../sync/publish/snapshot.js';

export interface DoctorDeps {
  env: NodeJS.ProcessEnv;
  clock: Clock;
  logger: Logger;
  /** Versions to report and the least node the package supports. */
  version: string;
  minNode: string;
}

export interface DoctorOptions extends Pick<SyncFlags, 'config' | 'warehouse' | 'project' | 'rateLimit'> {
  timeoutMs: number;
}

export interface DoctorReport {
  ok: boolean;
  checks: CheckResult[];
}

const CONFIG_FIX = '`docs-etl init` writes a commented starter config; README: Configuration';

export async function runDoctor(deps: DoctorDeps, opts: DoctorOptions): Promise<DoctorReport> {
  const checks: CheckResult[] = [];
  const { config, problems } = resolveConfig(deps, opts);
  checks.push(...problems);
  const warehouse = config?.warehouse ?? safeWarehousePath(opts, deps.env);
  if (config) {
    checks.push(ok('config', `${config.projects.length} project(s): ${config.projects.map((p) => p.projectId).join(', ')}; warehouse ${config.warehouse}`));
    checks.push(...(await checkOrganizations(deps, opts, config)));
  }
  checks.push(await checkWarehouse(warehouse));
  checks.push(await checkReadSnapshot(config?.readPath ?? readPathFor(warehouse, deps.env)));
  checks.push(checkDisk(warehouse));
  checks.push(await checkVersions(deps.version, deps.minNode));
  checks.push(checkNodeMemory());
  return { ok: !checks.some((c) => c.status === 'fail'), checks };
}

/** Per organization (one key): its format; then one request per project, static export, the budget. */
async function checkOrganizations(deps: DoctorDeps, opts: DoctorOptions, cfg: SyncConfig): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  // The budget store first: with a Redis budget that cannot be used, a sync would stop at once.
  let backend: BudgetBackend;
  try {
    backend = await openBudgetBackend(
      { url: cfg.budgetUrl, source: cfg.budgetSource, dir: cfg.budgetDir, legacyDir: cfg.legacyBudgetDir, onWarning: (m) => deps.logger.warn(m) }, deps.clock);
  } catch (err) {
    out.push(fail('budget-store', messageOf(err), 'start Redis or fix DOCS_ETL_BUDGET_URL / the config\'s budget (host, port, password); a sync never falls back to the local log'));
    for (const p of cfg.projects) out.push(skip('api', 'not checked: the budget store cannot be used', { subject: p.projectId }));
    return out;
  }
  if (backend.kind === 'redis') out.push(ok('budget-store', `Redis ${backend.where} answers: the request logs are shared by every host that uses it`));
  try {
    out.push(...(await checkEachOrganization(deps, opts, cfg, backend)));
  } finally {
    await backend.close();
  }
  return out;
}

async function checkEachOrganization(deps: DoctorDeps, opts: DoctorOptions, cfg: SyncConfig, backend: BudgetBackend): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const byOrg = new Map<string, ProjectConfig[]>();
  for (const p of cfg.projects) byOrg.set(p.organization, [...(byOrg.get(p.organization) ?? []), p]);
  for (const [organization, projects] of byOrg) {
    const first = projects[0]!;
    const keyCheck = checkKeyFormat(first.apiKey, first.keySource, organization);
    out.push(keyCheck);
    if (keyCheck.status === 'fail') {
      for (const p of projects) out.push(skip('api', 'not checked: fix the key first', { subject: p.projectId }));
      continue;
    }
    const budget: RequestBudget = createBudget({
      store: backend.store(organization, (file, reason) => deps.logger.warn({ file, reason }, 'request log was damaged')),
      rate: cfg.rate, clock: deps.clock, maxWaitMs: 0,
    });
    let unreachable = 0;
    for (const p of projects) {
      const r = await probeProject(target(deps, opts, p), p.projectId, budget);
      if (r.data?.unreachable) unreachable++;
      out.push(r);
    }
    // When the API could not be reached at all, the static export line would only repeat that.
    out.push(unreachable === projects.length
      ? skip('static-export', 'not checked: the API could not be reached', { subject: organization })
      : await probeStaticExport(target(deps, opts, first), organization));
    await budget.refresh();
    out.push(checkBudget(budget, deps.clock, organization));
  }
  return out;
}

function target(deps: DoctorDeps, opts: DoctorOptions, p: ProjectConfig) {
  return { baseUrl: p.baseUrl, apiKey: p.apiKey, keySource: p.keySource, timeoutMs: opts.timeoutMs, clock: deps.clock };
}

/**
 * The configuration a sync would use. With a config file, each project is resolved on its own, so
 * one unset key variable is reported for its project and the others are still checked.
 */
function resolveConfig(deps: DoctorDeps, opts: DoctorOptions): { config: SyncConfig | null; problems: CheckResult[] } {
  const now = deps.clock.now();
  const flags: SyncFlags = { config: opts.config, warehouse: opts.warehouse, project: opts.project, rateLimit: opts.rateLimit };
  if (!opts.config) {
    try {
      return { config: resolveSyncConfig(flags, deps.env, now), problems: [] };
    } catch (err) {
      return { config: null, problems: [configProblem(err)] };
    }
  }
  let ids: string[];
  try {
    ids = loadConfigFile(opts.config).projects.map((p) => p.id).filter((id) => !opts.project || id === opts.project);
    if (!ids.length) ids = [opts.project!]; // resolveSyncConfig names the config's projects
  } catch (err) {
    return { config: null, problems: [configProblem(err)] };
  }
  const problems: CheckResult[] = [];
  const resolved: SyncConfig[] = [];
  for (const id of ids) {
    try {
      resolved.push(resolveSyncConfig({ ...flags, project: id }, deps.env, now));
    } catch (err) {
      problems.push({ ...configProblem(err), subject: id });
    }
  }
  if (!resolved.length) return { config: null, problems };
  return { config: { ...resolved[0]!, projects: resolved.flatMap((c) => c.projects) }, problems };
}

function configProblem(err: unknown): CheckResult {
  if (!(err instanceof UsageError)) throw err;
  return fail('config', messageOf(err), CONFIG_FIX);
}

function safeWarehousePath(opts: DoctorOptions, env: NodeJS.ProcessEnv): string {
  try {
    return warehousePath(opts.warehouse, env);
  } catch {
    return warehousePath(undefined, env);
  }
}
