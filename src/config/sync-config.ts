// Configuration of `sync`: flags, then environment, then an optional config file (several
// projects / organizations). Secrets come only from the environment: the file names the variable.
// The file is JSON with comments (jsonc.ts). Dates without an offset are UTC (core/dates.ts).
import { basename, dirname, join } from 'node:path';
import { DEFAULT_BASE_URL, DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS } from '../contracts/api-defaults.js';
import { systemClock } from '../core/clock.js';
import { type RateLimit } from '../core/duration.js';
import { UsageError } from '../core/errors.js';
import { warehousePath } from '../core/paths.js';
import { checkNotFuture, parseDateValue } from '../core/dates.js';
import { checkProjectId } from '../core/project-id.js';
import { keyFingerprint } from '../core/secrets.js';
import { DEFAULT_MEMORY_LIMIT, DEFAULT_THREADS } from '../warehouse/warehouse-defaults.js';
import { DEFAULT_MERGE_BATCH_ROWS } from '../sync/load/merge-defaults.js';
import { DEFAULT_REREADS, type RereadStage } from '../sync/plan/reread-schedule.js';
import { defaultReadPath, readPathFor } from '../sync/publish/snapshot.js';
import { parseLakeLocation } from '../outputs/lake/lake-location.js';
import { DEFAULT_READ_GRACE_MS, DEFAULT_READ_SURFACE, type ReadSurface } from '../sync/publish/read-surface-defaults.js';

import { DEFAULT_TIME_ZONE, zoneOffsetMs } from '../core/time-zone.js';
import { chooseBudgetDir, type BudgetDirChoice } from './budget-dir.js';
import { keyFixWarning, normalizeApiKey } from '../core/secrets.js';
import { parseRedisUrl } from '../budget/redis-url.js';
import { DEFAULT_TOPIC_SETTINGS, type TopicSettings } from '../outputs/topics/topic-settings.js';
import { loadConfigFile, type ConfigFile } from './config-file.js';
import { byteCap, checkUrl, listEnv } from './env-values.js';

export interface ProjectConfig {
  projectId: string;
  apiKey: string;
  /** Where the key came from (an environment variable name), for messages. */
  keySource: string;
  baseUrl: string;
  organization: string;
  backfillFrom: Date | null;
  /** IANA zone of the project's days in the views (the `projects` table); UTC when absent. */
  timezone?: string;
}

export interface PlanSettingsConfig {
  maxWindowMs: number;
  headOverlapMs: number;
  windowPages: number;
  rereads: RereadStage[];
  fillPages: number;
}

export interface SyncConfig {
  warehouse: string;
  /** Deprecated: re-read this span before the head on every run (null: the planner decides). */
  lookbackMs: number | null;
  rate: RateLimit;
  maxWaitMs: number;
  budgetDir: string;
  /** The budget folder of older versions (`<warehouse dir>/budget`) to migrate into budgetDir; set when budgetDir is the per-user default. */
  legacyBudgetDir?: string | null;
  /**
   * The request logs in Redis, shared across hosts (DOCS_ETL_BUDGET_URL, config `budget`); null:
   * the local budgetDir. `budgetSource` names where the URL came from, for messages.
   */
  budgetUrl?: string | null;
  budgetSource?: string;
  projects: ProjectConfig[];
  plan: PlanSettingsConfig;
  /** Landed pages (state/landing); merged ones are kept compressed for this long (null: deleted). */
  landingDir: string;
  keepRawMs: number | null;
  /** The published read snapshot, and how often a long run publishes between batches. */
  readPath: string;
  publishIntervalMs: number;
  /** How the read path is published (catalog over Parquet files, or a full copy) and how long retired files are kept. */
  readSurface: ReadSurface;
  readGraceMs: number;
  duckdb: { memoryLimit: string; threads: number };
  /** Largest merge batch, in records (config mergeBatchRows): bounds DuckDB's memory per MERGE (docs/performance.md). */
  mergeBatchRows: number;
  /** Pipelines to run (names); null: all. */
  pipelines: string[] | null;
  /** Deprecation notices for the caller to print once. */
  warnings: string[];
  /** Total deadline of one API request (--request-timeout, config requestTimeout); default 60s. */
  requestTimeoutMs: number;
  /** Cap on one page's body (DOCS_ETL_MAX_PAGE_BYTES, hidden); default 64 MiB. */
  maxPageBytes: number;
  /** Opt-in: the Parquet lake exported after each run (--lake, DOCS_ETL_LAKE, config `lake`): a directory or s3://bucket/prefix. */
  lake: string | null;
  /** Gap topics: period (--topic-period, config topicPeriod) and cap (config topicMaxQuestions). */
  topics: TopicSettings;
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
  maxWindow?: number;
  rereads?: RereadStage[];
  keepRaw?: number | null;
  memoryLimit?: string;
  threads?: number;
  pipelines?: string[];
  lake?: string;
  topicPeriod?: number;
  readSurface?: ReadSurface;
  readGrace?: number;
}

/**
 * `now` (the caller's clock) rejects a backfill start in the future; `onWarning` hears of keys that
 * were normalized (the warning never shows the key).
 */
export function resolveSyncConfig(
  flags: SyncFlags, env: NodeJS.ProcessEnv, now: Date = systemClock.now(), onWarning: (message: string) => void = () => {},
): SyncConfig {
  const file = flags.config ? loadConfigFile(flags.config) : null;
  if (flags.project !== undefined && !flags.project.trim()) throw new UsageError('--project is empty: give a project id');
  if (flags.project !== undefined) checkProjectId(flags.project, '--project');
  if (flags.from) checkNotFuture(flags.from, '--from', now);
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
        const from = flags.from ?? (p.from ? projectFrom(p.from, p.timezone ?? DEFAULT_TIME_ZONE) : null);
        if (from && !flags.from) checkNotFuture(from, `config projects[${i}].from`, now);
        return { ...project(p.id, key, p.apiKeyEnv, envBase ?? p.baseUrl ?? baseUrl, from, onWarning), timezone: p.timezone ?? DEFAULT_TIME_ZONE };
      });
    if (!projects.length) {
      throw new UsageError(`project "${flags.project}" is not in config file ${flags.config} (its projects: ${file.projects.map((p) => p.id).join(', ')})`);
    }
  } else {
    const id = flags.project ?? env.DOCS_PROJECT_ID;
    if (!id) throw new UsageError('no project: set DOCS_PROJECT_ID, pass --project ID, or list projects in --config FILE');
    checkProjectId(id, flags.project !== undefined ? '--project' : 'DOCS_PROJECT_ID');
    const key = env.DOCS_API_KEY;
    if (!key) throw new UsageError('no API key: set DOCS_API_KEY to the organization\'s admin key (never pass it as a flag)');
    projects = [{ ...project(id, key, 'DOCS_API_KEY', baseUrl, flags.from ?? null, onWarning), timezone: DEFAULT_TIME_ZONE }];
  }
  const lookbackMs = flags.lookback ?? file?.lookback ?? null;
  const warnings = [...(file?.pathWarnings ?? [])];
  if (lookbackMs !== null) warnings.push(
    `${flags.lookback !== undefined ? '--lookback' : 'the config field lookback'} is deprecated: the planner re-reads recent data on a schedule (--rereads); the lookback span is still re-read on every run, at the cost of requests`,
  );
  const base = defaultSyncConfig(warehouse, projects);
  return {
    ...base,
    lookbackMs,
    warnings,
    plan: {
      ...base.plan,
      maxWindowMs: flags.maxWindow ?? file?.maxWindow ?? base.plan.maxWindowMs,
      headOverlapMs: file?.headOverlap ?? base.plan.headOverlapMs,
      windowPages: file?.windowPages ?? base.plan.windowPages,
      rereads: flags.rereads ?? file?.rereads ?? base.plan.rereads,
    },
    landingDir: file?.landingDir ?? base.landingDir,
    keepRawMs: flags.keepRaw !== undefined ? flags.keepRaw : (file?.keepRaw ?? base.keepRawMs),
    readPath: readPathFor(warehouse, env, file?.readPath),
    publishIntervalMs: file?.publishInterval ?? base.publishIntervalMs,
    readSurface: flags.readSurface ?? file?.readSurface ?? base.readSurface,
    readGraceMs: flags.readGrace ?? file?.readGrace ?? base.readGraceMs,
    duckdb: { memoryLimit: flags.memoryLimit ?? file?.memoryLimit ?? base.duckdb.memoryLimit, threads: flags.threads ?? file?.threads ?? base.duckdb.threads },
    mergeBatchRows: file?.mergeBatchRows ?? base.mergeBatchRows,
    // DOCS_PIPELINES: the same comma-separated list as --pipelines, for containers and services.
    pipelines: flags.pipelines ?? listEnv(env.DOCS_PIPELINES) ?? file?.pipelines ?? base.pipelines,
    rate: flags.rateLimit ?? file?.rateLimit ?? base.rate,
    maxWaitMs: flags.maxWait ?? file?.maxWait ?? base.maxWaitMs,
    ...budgetDirOf(chooseBudgetDir(env, file?.budgetDir, warehouse)),
    ...budgetUrlOf(env, file),
    requestTimeoutMs: flags.requestTimeout ?? file?.requestTimeout ?? base.requestTimeoutMs,
    maxPageBytes: byteCap(env.DOCS_ETL_MAX_PAGE_BYTES, 'DOCS_ETL_MAX_PAGE_BYTES') ?? base.maxPageBytes,
    lake: lakeSetting(flags.lake, env.DOCS_ETL_LAKE, file?.lake),
    topics: topicSettings(flags.topicPeriod, file),
  };
}

/** Gap topic settings: the flag, then the config file, then the defaults. */
export function topicSettings(periodFlag: number | undefined, file: ConfigFile | null): TopicSettings {
  return {
    periodMs: periodFlag ?? file?.topicPeriod ?? DEFAULT_TOPIC_SETTINGS.periodMs,
    maxQuestions: file?.topicMaxQuestions ?? DEFAULT_TOPIC_SETTINGS.maxQuestions,
  };
}

/** The lake sync exports after its run: --lake, else DOCS_ETL_LAKE, else config `lake`; checked now, not after the sync. */
function lakeSetting(flag: string | undefined, env: string | undefined, file: string | undefined): string | null {
  const [value, what] = flag !== undefined ? [flag, '--lake'] : env ? [env, 'DOCS_ETL_LAKE'] : [file, 'config lake'];
  if (value === undefined) return null;
  parseLakeLocation(value, what);
  return value;
}

/** What commands that work on local state only (rebuild, reset) need: no key, no project list. */
export interface LocalConfig {
  warehouse: string;
  landingDir: string;
  readPath: string;
  readSurface: ReadSurface;
  readGraceMs: number;
  duckdb: { memoryLimit: string; threads: number };
  /** The config file's path warnings (config-relative paths that changed which file is used), said once. */
  warnings?: string[];
}

export function resolveLocalConfig(flags: { warehouse?: string; config?: string }, env: NodeJS.ProcessEnv): LocalConfig {
  const file = flags.config ? loadConfigFile(flags.config) : null;
  const warehouse = warehousePath(flags.warehouse, env, file?.warehouse);
  const base = defaultSyncConfig(warehouse, []);
  return {
    warehouse,
    landingDir: file?.landingDir ?? base.landingDir,
    readPath: readPathFor(warehouse, env, file?.readPath),
    readSurface: file?.readSurface ?? base.readSurface,
    readGraceMs: file?.readGrace ?? base.readGraceMs,
    duckdb: { memoryLimit: file?.memoryLimit ?? base.duckdb.memoryLimit, threads: file?.threads ?? base.duckdb.threads },
    warnings: file?.pathWarnings ?? [],
  };
}

/** Every setting at its default, for a warehouse and its projects (what no flag, variable or file changes). */
export function defaultSyncConfig(warehouse: string, projects: ProjectConfig[], over: Partial<SyncConfig> = {}): SyncConfig {
  return {
    warehouse,
    projects,
    lookbackMs: null,
    warnings: [],
    plan: { maxWindowMs: 7 * 86_400_000, headOverlapMs: 10 * 60_000, windowPages: 50, rereads: [...DEFAULT_REREADS], fillPages: 10 },
    landingDir: join(dirname(warehouse), 'landing', basename(warehouse).replace(/\.duckdb$/, '')),
    keepRawMs: null,
    readPath: defaultReadPath(warehouse),
    publishIntervalMs: 10 * 60_000,
    readSurface: DEFAULT_READ_SURFACE,
    readGraceMs: DEFAULT_READ_GRACE_MS,
    duckdb: { memoryLimit: DEFAULT_MEMORY_LIMIT, threads: DEFAULT_THREADS },
    mergeBatchRows: DEFAULT_MERGE_BATCH_ROWS,
    pipelines: null,
    rate: { limit: 100, windowMs: 3_600_000 },
    maxWaitMs: 15 * 60_000,
    // Processes of one organization share its budget through this folder. The library default
    // stays beside the warehouse (embedding code and tests pass their own); the commands use the
    // per-user folder (resolveSyncConfig, config/budget-dir.ts).
    budgetDir: join(dirname(warehouse), 'budget'),
    budgetUrl: null,
    lake: null,
    requestTimeoutMs: DEFAULT_TIMEOUT_MS,
    maxPageBytes: DEFAULT_MAX_BODY_BYTES,
    topics: DEFAULT_TOPIC_SETTINGS,
    ...over,
  };
}

function project(
  projectId: string, rawKey: string, keySource: string, baseUrl: string, backfillFrom: Date | null, onWarning: (m: string) => void,
): ProjectConfig {
  const { key: apiKey, fixes } = normalizeApiKey(rawKey, keySource);
  if (fixes.length) onWarning(keyFixWarning(keySource, fixes));
  return { projectId, apiKey, keySource, baseUrl, organization: keyFingerprint(apiKey), backfillFrom };
}

function budgetDirOf(c: BudgetDirChoice): Pick<SyncConfig, 'budgetDir' | 'legacyBudgetDir'> {
  return { budgetDir: c.dir, legacyBudgetDir: c.legacyDir };
}

/** DOCS_ETL_BUDGET_URL (checked here: exit 2 for a malformed URL), else the config's `budget`; blank: none. */
function budgetUrlOf(env: NodeJS.ProcessEnv, file: ConfigFile | null): Pick<SyncConfig, 'budgetUrl' | 'budgetSource'> {
  const fromEnv = env.DOCS_ETL_BUDGET_URL?.trim();
  if (fromEnv) {
    parseRedisUrl(fromEnv, 'DOCS_ETL_BUDGET_URL');
    return { budgetUrl: fromEnv, budgetSource: 'DOCS_ETL_BUDGET_URL' };
  }
  return file?.budget ? { budgetUrl: file.budget, budgetSource: 'config budget' } : { budgetUrl: null };
}

/** A project's `from`: a bare date (YYYY-MM-DD) is midnight in the project's zone; a time with an offset is that instant. */
function projectFrom(text: string, tz: string): Date | null {
  const at = parseDateValue(text);
  if (!at || !/^\d{4}-\d{2}-\d{2}$/.test(text.trim())) return at;
  // Local midnight as UTC ms; the offset settled at the instant itself (a DST change that night).
  const wall = at.getTime();
  const guess = wall - zoneOffsetMs(tz, wall);
  return new Date(wall - zoneOffsetMs(tz, guess));
}
