// The JSON config file (`--config FILE`): its schema, read and checked with one clear line per problem;
// paths resolved against the file's folder. How its fields combine with flags and the environment is sync-config.ts.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { MEMORY_SIZE } from '../core/memory-size.js';
import { parseDuration, parseRateLimit } from '../core/duration.js';
import { UsageError, messageOf } from '../core/errors.js';
import { parseDateValue } from '../core/dates.js';
import { projectIdProblem } from '../core/project-id.js';
import { parseRereads } from '../sync/plan/reread-schedule.js';
import { READ_SURFACES } from '../sync/publish/read-surface-defaults.js';
import { canonicalTimeZone } from '../core/time-zone.js';
import { stripJsonComments } from './jsonc.js';
import { resolveConfigPaths } from './config-paths.js';
import { parseRequestTimeout } from './request-limits.js';
import { parseRedisUrl, redisUrlSecretProblem } from '../budget/redis-url.js';
import { OPS_CONFIG_FIELDS } from './ops-config-fields.js';

/** DuckDB memory sizes: 256MB, 1GB, 512MiB. */
export const MEMORY = MEMORY_SIZE;

/** `--keep-raw 30d`: keep merged pages that long; `0` or `none`: delete them once merged. */
export function parseKeepRaw(v: string): number | null {
  if (v.trim() === 'none' || v.trim() === '0') return null;
  return parseDuration(v, 'keep-raw');
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
const projectId = z.string().min(1).superRefine((v, ctx) => {
  const problem = projectIdProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: `invalid project id ${JSON.stringify(v)}: ${problem}` });
});
const timeZone = z.string().transform((v, ctx) => {
  const zone = canonicalTimeZone(v);
  if (!zone) {
    ctx.addIssue({ code: 'custom', message: `unknown time zone "${v}": use an IANA name such as Europe/Berlin or UTC` });
    return z.NEVER;
  }
  return zone;
});

export const configFileSchema = z.strictObject({
  warehouse: z.string().min(1).optional(),
  baseUrl: httpUrl.optional(),
  lookback: parsed((v) => parseDuration(v, 'lookback')).optional(),
  rateLimit: parsed(parseRateLimit).optional(),
  maxWait: parsed((v) => parseDuration(v, 'max-wait')).optional(),
  requestTimeout: parsed(parseRequestTimeout).optional(),
  budgetDir: z.string().min(1).optional(),
  /** redis://host:port/db: one budget across hosts. No secret in any form here (they come from the environment). */
  budget: z.string().min(1).superRefine((v, ctx) => {
    try {
      parseRedisUrl(v, 'budget');
      const secret = redisUrlSecretProblem(v);
      if (secret) ctx.addIssue({ code: 'custom', message: secret });
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: messageOf(err).replace(/^budget /, '') });
    }
  }).optional(),
  maxWindow: parsed((v) => parseDuration(v, 'maxWindow')).optional(),
  headOverlap: parsed((v) => parseDuration(v, 'headOverlap')).optional(),
  windowPages: z.number().int().min(1).max(10_000).optional(),
  rereads: parsed(parseRereads).optional(),
  keepRaw: parsed(parseKeepRaw).optional(),
  landingDir: z.string().min(1).optional(),
  readPath: z.string().min(1).optional(),
  publishInterval: parsed((v) => parseDuration(v, 'publishInterval')).optional(),
  readSurface: z.enum(READ_SURFACES).optional(),
  readGrace: parsed((v) => parseDuration(v, 'readGrace')).optional(),
  memoryLimit: z.string().regex(MEMORY, 'expected a size such as 256MB or 1GB').optional(),
  threads: z.number().int().min(1).max(256).optional(),
  mergeBatchRows: z.number().int().min(1_000).max(1_000_000).optional(),
  pipelines: z.array(z.string().min(1)).min(1).optional(),
  lake: z.string().min(1).optional(),
  topicPeriod: parsed((v) => parseDuration(v, 'topicPeriod')).optional(),
  topicMaxQuestions: z.number().int().min(100).max(2_000_000).optional(),
  ...OPS_CONFIG_FIELDS,
  projects: z.array(z.strictObject({
    id: projectId,
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name'),
    baseUrl: httpUrl.optional(),
    from: isoDate.optional(),
    /** Day boundaries of this project's views (IANA name); default UTC. */
    timezone: timeZone.optional(),
  })).min(1, 'list at least one project').superRefine((projects, ctx) => {
    const seen = new Set<string>();
    projects.forEach((p, i) => {
      if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `project "${p.id}" is listed twice` });
      seen.add(p.id);
    });
  }),
});

export type ConfigFile = z.infer<typeof configFileSchema>;

/** A config file as read: its paths resolved against its folder, with the warnings that gave. */
export type LoadedConfigFile = ConfigFile & { pathWarnings: string[] };

export function loadConfigFile(path: string): LoadedConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read config file ${path}: ${(err as NodeJS.ErrnoException).code ?? messageOf(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch (err) {
    throw new UsageError(`config file ${path} is not valid JSON: ${jsonErrorText(messageOf(err), text)}`);
  }
  const r = configFileSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const at = i.path.length ? i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '(top level)';
    throw new UsageError(`config file ${path}: ${at}: ${i.message}`);
  }
  const { file, warnings } = resolveConfigPaths(r.data, path);
  return { ...file, pathWarnings: warnings };
}

/** JSON.parse's message on one line, with its position as line:column when it gives one. */
function jsonErrorText(message: string, text: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  const pos = /position (\d+)/.exec(flat);
  if (!pos) return flat;
  const before = text.slice(0, Number(pos[1]));
  const line = before.split('\n').length;
  return `${flat} (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
}
