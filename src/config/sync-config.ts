// Configuration of `sync`: flags, then environment, then an optional config file (several
// projects / organizations). Secrets come only from the environment: the file names the variable.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_BASE_URL } from '../api/analytics-client.js';
import { parseDuration, parseRateLimit, type RateLimit } from '../core/duration.js';
import { UsageError, messageOf } from '../core/errors.js';
import { warehousePath } from '../core/paths.js';
import { parseDateValue } from '../core/dates.js';
import { keyFingerprint, keyFixWarning, normalizeApiKey } from '../core/secrets.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS } from '../api/http.js';
import { parseRequestTimeout } from './request-limits.js';

export interface ProjectConfig {
  projectId: string;
  apiKey: string;
  /** Where the key came from (an environment variable name), for messages. */
  keySource: string;
  baseUrl: string;
  organization: string;
  backfillFrom: Date | null;
}

export interface SyncConfig {
  warehouse: string;
  lookbackMs: number;
  rate: RateLimit;
  maxWaitMs: number;
  budgetDir: string;
  projects: ProjectConfig[];
  /** Total deadline of one API request (--request-timeout, config requestTimeout); default 60s. */
  requestTimeoutMs?: number;
  /** Cap on one page's body (DOCS_ETL_MAX_PAGE_BYTES, hidden); default 64 MiB. */
  maxPageBytes?: number;
}

export interface SyncFlags {
  warehouse?: string;
  project?: string;
  lookback?: number;
  from?: Date;
  rateLimit?: RateLimit;
  maxWait?: number;
  requestTimeout?: number;
  config?: string;
}

/** A string field parsed by one of the flag parsers: its UsageError becomes the field's issue. */
const parsed = <T>(parse: (v: string) => T) =>
  z.string().transform((v, ctx) => {
    try {
      return parse(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: messageOf(err) });
      return z.NEVER;
    }
  });

const isoDate = z.string().refine((v) => parseDateValue(v) !== null, 'expected a date (YYYY-MM-DD or ISO 8601)');
const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

export const configFileSchema = z.strictObject({
  warehouse: z.string().min(1).optional(),
  baseUrl: httpUrl.optional(),
  lookback: parsed((v) => parseDuration(v, 'lookback')).optional(),
  rateLimit: parsed(parseRateLimit).optional(),
  maxWait: parsed((v) => parseDuration(v, 'max-wait')).optional(),
  requestTimeout: parsed(parseRequestTimeout).optional(),
  budgetDir: z.string().min(1).optional(),
  projects: z.array(z.strictObject({
    id: z.string().min(1),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name'),
    baseUrl: httpUrl.optional(),
    from: isoDate.optional(),
  })).min(1, 'list at least one project').superRefine((projects, ctx) => {
    const seen = new Set<string>();
    projects.forEach((p, i) => {
      if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `project "${p.id}" is listed twice` });
      seen.add(p.id);
    });
  }),
});

export type ConfigFile = z.infer<typeof configFileSchema>;

export function loadConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read config file ${path}: ${(err as NodeJS.ErrnoException).code ?? messageOf(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`config file ${path} is not valid JSON: ${messageOf(err)}`);
  }
  const r = configFileSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const at = i.path.length ? i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '(top level)';
    throw new UsageError(`config file ${path}: ${at}: ${i.message}`);
  }
  return r.data;
}

/** `onWarning` hears of keys that were normalized (the warning never shows the key). */
export function resolveSyncConfig(flags: SyncFlags, env: NodeJS.ProcessEnv, onWarning: (message: string) => void = () => {}): SyncConfig {
  const file = flags.config ? loadConfigFile(flags.config) : null;
  if (flags.project !== undefined && !flags.project.trim()) throw new UsageError('--project is empty: give a project id');
  const warehouse = warehousePath(flags.warehouse, env, file?.warehouse);
  const envBase = env.DOCS_API_BASE_URL;
  if (envBase !== undefined) checkUrl(envBase, 'DOCS_API_BASE_URL');
  const baseUrl = envBase ?? file?.baseUrl ?? DEFAULT_BASE_URL;
  let projects: ProjectConfig[];
  if (file) {
    projects = file.projects
      .filter((p) => !flags.project || p.id === flags.project)
      .map((p, i) => {
        const key = env[p.apiKeyEnv];
        if (!key) throw new UsageError(`environment variable ${p.apiKeyEnv} (config projects[${i}].apiKeyEnv) is not set`);
        return project(p.id, key, p.apiKeyEnv, envBase ?? p.baseUrl ?? baseUrl, flags.from ?? (p.from ? parseDateValue(p.from) : null), onWarning);
      });
    if (!projects.length) throw new UsageError(`project "${flags.project}" is not in config file ${flags.config}`);
  } else {
    const id = flags.project ?? env.DOCS_PROJECT_ID;
    if (!id) throw new UsageError('no project: set DOCS_PROJECT_ID, pass --project ID, or list projects in --config FILE');
    const key = env.DOCS_API_KEY;
    if (!key) throw new UsageError('no API key: set DOCS_API_KEY to the organization\'s admin key (never pass it as a flag)');
    projects = [project(id, key, 'DOCS_API_KEY', baseUrl, flags.from ?? null, onWarning)];
  }
  return {
    warehouse,
    lookbackMs: flags.lookback ?? file?.lookback ?? 24 * 3_600_000,
    rate: flags.rateLimit ?? file?.rateLimit ?? { limit: 100, windowMs: 3_600_000 },
    maxWaitMs: flags.maxWait ?? file?.maxWait ?? 15 * 60_000,
    // Processes of one organization share its budget through this folder; point several
    // warehouses at one folder (DOCS_ETL_BUDGET_DIR) when they use the same organization.
    budgetDir: env.DOCS_ETL_BUDGET_DIR ?? file?.budgetDir ?? join(dirname(warehouse), 'budget'),
    projects,
    requestTimeoutMs: flags.requestTimeout ?? file?.requestTimeout ?? DEFAULT_TIMEOUT_MS,
    maxPageBytes: byteCap(env.DOCS_ETL_MAX_PAGE_BYTES, 'DOCS_ETL_MAX_PAGE_BYTES') ?? DEFAULT_MAX_BODY_BYTES,
  };
}

function project(
  projectId: string, rawKey: string, keySource: string, baseUrl: string, backfillFrom: Date | null, onWarning: (m: string) => void,
): ProjectConfig {
  const { key: apiKey, fixes } = normalizeApiKey(rawKey, keySource);
  if (fixes.length) onWarning(keyFixWarning(keySource, fixes));
  return { projectId, apiKey, keySource, baseUrl, organization: keyFingerprint(apiKey), backfillFrom };
}

/** A byte count from a (hidden, test-oriented) environment variable; undefined when unset. */
function byteCap(v: string | undefined, name: string): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${name} must be a positive number of bytes, got "${v}"`);
  return n;
}

function checkUrl(v: string, name: string): void {
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new UsageError(`${name} is not an http(s) URL: "${v}"`);
  }
}
