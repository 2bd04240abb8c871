// `docs-etl sandbox`: runs the local twin of the API until SIGTERM/SIGINT. Prints exactly one
// line on stdout once listening (`listening on http://HOST:PORT`), which scripts and tests wait for.
import { Command, InvalidArgumentError, Option } from 'commander';
import { systemClock } from '../../core/clock.js';
import type { RateLimit } from '../../core/duration.js';
import { EXIT } from '../../core/errors.js';
import {
  DEMO_API_KEY, DEMO_PROJECT_ID, FAULT_KINDS, defaultSandboxOptions, startSandbox, type FaultKind, type SandboxOptions,
} from '../../sandbox/index.js';
import { durationArg, intArg, numberArg, rateLimitArg } from '../options.js';
import type { CommandFactory } from './index.js';

interface SandboxFlags {
  port: number;
  host: string;
  apiKey: string[];
  nonEnterpriseKey: string[];
  project: string[];
  conversations: number;
  historyDays: number;
  seed: number;
  live?: boolean;
  liveRate: number;
  rateLimit: RateLimit | null;
  faultRate: number;
  faults: FaultKind[];
  malformedRate: number;
  latency: number;
  cursorTtl: number | null;
  jobDuration: number;
  failDomain: string[];
  bundleTtl: number;
  pagesPerSite: number;
}

const DEFAULT_KEYS = [DEMO_API_KEY];
const DEFAULT_NON_ENTERPRISE: string[] = [];
const DEFAULT_PROJECTS = [DEMO_PROJECT_ID];
const DEFAULT_FAIL_DOMAINS = ['fail.example.com'];
const DEFAULT_FAULTS: FaultKind[] = ['http5xx', 'reset', 'truncate', 'repeat'];

/** A repeatable flag: the first use replaces the default list, later uses append. */
function repeatable(defaults: string[], what: string) {
  return (value: string, previous: string[]): string[] => {
    if (value.trim() === '') throw new InvalidArgumentError(`${what} must not be empty`);
    return previous === defaults ? [value] : [...previous, value];
  };
}

function faultsArg(v: string): FaultKind[] {
  const kinds = v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const k of kinds) {
    if (!FAULT_KINDS.includes(k as FaultKind)) {
      throw new InvalidArgumentError(`unknown fault "${k}": use a comma-separated list of ${FAULT_KINDS.join(', ')}`);
    }
  }
  return kinds as FaultKind[];
}

/** An empty host would make node listen on every interface: the sandbox stays where it was asked to be. */
function hostArg(v: string): string {
  if (!v.trim()) throw new InvalidArgumentError('expected an interface such as 127.0.0.1, got an empty value');
  return v.trim();
}

function rateLimitOrNone(v: string): RateLimit | null {
  return v.trim() === 'none' ? null : rateLimitArg(v);
}

function durationOrNone(v: string): number | null {
  return v.trim() === 'none' ? null : durationArg(v);
}

/** An option whose default is shown in --help as `shown` (e.g. "15m" rather than 900000). */
function opt<T>(flags: string, description: string, parse: (v: string) => T, value: T, shown: string): Option {
  return new Option(flags, description).argParser(parse).default(value, shown);
}

export function sandboxOptionsFromFlags(f: SandboxFlags): SandboxOptions {
  return defaultSandboxOptions({
    host: f.host, port: f.port, apiKeys: f.apiKey, nonEnterpriseKeys: f.nonEnterpriseKey, projects: f.project,
    conversations: f.conversations, historyDays: f.historyDays, seed: f.seed, live: f.live === true,
    liveTurnsPerMinute: f.liveRate, rateLimit: f.rateLimit, faultRate: f.faultRate, faults: f.faults,
    malformedRate: f.malformedRate, latencyMs: f.latency, cursorTtlMs: f.cursorTtl,
    staticExport: {
      jobDurationMs: f.jobDuration, failDomains: f.failDomain, bundleTtlMs: f.bundleTtl,
      pagesPerSite: f.pagesPerSite, damagedDownloads: 0,
    },
    clock: systemClock,
  });
}

export const sandboxCommand: CommandFactory = (ctx, setExitCode) =>
  new Command('sandbox')
    .description('run the local twin of the analytics and static export API (demo, tests, no key needed)')
    .option('--port <n>', 'port to listen on (0 = any free port)', intArg(0, 65535), 0)
    .option('--host <host>', 'interface to listen on (keep it loopback)', hostArg, '127.0.0.1')
    .option('--api-key <key>', 'accepted admin key, one organization each (repeatable)', repeatable(DEFAULT_KEYS, '--api-key'), DEFAULT_KEYS)
    .option('--non-enterprise-key <key>', 'accepted key without static export (403) (repeatable)',
      repeatable(DEFAULT_NON_ENTERPRISE, '--non-enterprise-key'), DEFAULT_NON_ENTERPRISE)
    .option('--project <id>', 'project that exists (repeatable)', repeatable(DEFAULT_PROJECTS, '--project'), DEFAULT_PROJECTS)
    .option('--conversations <n>', 'turns of history per project', intArg(0, 1_000_000), 5000)
    .option('--history-days <n>', 'days of history before the start', intArg(1, 3650), 30)
    .option('--seed <n>', 'seed of the generated data', intArg(0, 2 ** 32 - 1), 42)
    .option('--live', 'new turns keep arriving (some late, some re-categorized)')
    .option('--live-rate <n>', 'live turns per minute per project', numberArg(0, 10_000), 20)
    .addOption(opt('--rate-limit <n/window>', 'requests per organization per sliding window, or "none"', rateLimitOrNone, { limit: 100, windowMs: 3_600_000 }, '100/1h'))
    .option('--fault-rate <p>', 'probability of a fault per analytics request (0..1)', numberArg(0, 1), 0)
    .addOption(opt('--faults <list>', `faults to inject, from ${FAULT_KINDS.join(',')}`, faultsArg, DEFAULT_FAULTS, DEFAULT_FAULTS.join(',')))
    .option('--malformed-rate <p>', 'fraction of records that are persistently malformed (0..1)', numberArg(0, 1), 0)
    .addOption(opt('--latency <duration>', 'added latency per analytics request, e.g. 50ms', durationArg, 0, '0ms'))
    .addOption(opt('--cursor-ttl <duration>', 'issued cursors expire after this, or "none"', durationOrNone, null, 'none'))
    .addOption(opt('--job-duration <duration>', 'static export: time for a job to complete', durationArg, 3000, '3s'))
    .option('--fail-domain <domain>', 'static export: jobs for this domain fail (repeatable)',
      repeatable(DEFAULT_FAIL_DOMAINS, '--fail-domain'), DEFAULT_FAIL_DOMAINS)
    .addOption(opt('--bundle-ttl <duration>', 'static export: lifetime of a presigned bundle link', durationArg, 15 * 60_000, '15m'))
    .option('--pages-per-site <n>', 'static export: pages of an exported site', intArg(1, 10_000), 25)
    .addHelpText('after', `
Durations take a unit: 50ms, 3s, 15m, 1h. The default rate limit is the real API's (100/1h).
Test-only control routes (no auth, loopback clients only): /__sandbox/truth, /__sandbox/requests,
/__sandbox/expire-cursors, /__sandbox/configure.`)
    .action(async (flags: SandboxFlags) => {
      const sandbox = await startSandbox({ ...sandboxOptionsFromFlags(flags), logger: ctx.logger });
      ctx.stdout.write(`listening on ${sandbox.url}\n`);
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await sandbox.close();
      setExitCode(EXIT.ok);
    });
