// `docs-etl sandbox`: runs the local twin of the API until SIGTERM/SIGINT. Prints exactly one
// line on stdout once listening (`listening on http://HOST:PORT`), which scripts and tests wait for.
import { Command, InvalidArgumentError, Option } from 'commander';
import { systemClock } from '../../core/clock.js';
import { formatDuration, parseDuration, type RateLimit } from '../../core/duration.js';
import { EXIT, UsageError } from '../../core/errors.js';
// The sandbox's server is loaded when the command runs (it is the largest module of the CLI, and
// every other command would carry it); its options and defaults come from their own modules.
import { DEFAULT_SITE, MAX_SITE, defaultSandboxOptions } from '../../tools/sandbox/defaults.js';
import { DEFAULT_TRAFFIC_MODEL, trafficProblems } from '../../tools/sandbox/arrival-models.js';
import { FAULT_KINDS } from '../../tools/sandbox/faults.js';
import { DEMO_API_KEY, DEMO_PROJECT_ID, type ArrivalBand, type FaultKind, type SandboxOptions, type TrafficOptions } from '../../tools/sandbox/options.js';
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
  traffic: number | null;
  trafficArrival: ArrivalBand[];
  trafficChanges: TrafficOptions['changes'];
  sitePages: number;
  feedbackPerDay: number;
  searchesPerDay: number;
  viewsPerDay: number;
  rateLimit: RateLimit | null;
  faultRate: number;
  faults: FaultKind[];
  malformedRate: number;
  latency: number;
  cursorTtl: number | null;
  hugeRecord: number;
  endlessCursor?: boolean;
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

const DAY = 86_400_000;

/** A duration for the traffic flags, as an InvalidArgumentError when it is not one. */
function duration(v: string, what: string): number {
  try {
    return parseDuration(v, what);
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
}

/** `--traffic 100000/d` (turns per window, any duration: 5000/1h, 1000000/1d) → turns a day; "none" = off. */
function trafficArg(v: string): number | null {
  if (v.trim() === 'none') return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*\/\s*(\S+)\s*$/.exec(v);
  if (!m) throw new InvalidArgumentError(`expected TURNS/WINDOW such as 100000/d or 5000/1h, got "${v}"`);
  const windowMs = duration(/^\d/.test(m[2]!) ? m[2]! : `1${m[2]}`, 'traffic window');
  if (windowMs <= 0) throw new InvalidArgumentError('the traffic window must be positive');
  return (Number(m[1]) * DAY) / windowMs;
}

/** `--traffic-arrival 0.9:5m,0.09:3h,0.01:20h`: share:within bands. */
function arrivalArg(v: string): ArrivalBand[] {
  return v.split(',').map((part) => {
    const m = /^\s*([\d.]+)\s*:\s*(\S+)\s*$/.exec(part);
    if (!m) throw new InvalidArgumentError(`expected SHARE:WITHIN bands such as 0.9:5m,0.1:3h, got "${part}"`);
    return { share: Number(m[1]), withinMs: duration(m[2]!, 'arrival band') };
  });
}

/** `--traffic-changes 0.3:2h-12h`: share of turns changed, between min and max after their timestamp. */
function changesArg(v: string): TrafficOptions['changes'] {
  const m = /^\s*([\d.]+)\s*:\s*(\S+?)\s*-\s*(\S+)\s*$/.exec(v);
  if (!m) throw new InvalidArgumentError(`expected SHARE:MIN-MAX such as 0.3:2h-12h, got "${v}"`);
  return { share: Number(m[1]), minMs: duration(m[2]!, 'change delay'), maxMs: duration(m[3]!, 'change delay') };
}

function showBands(bands: ArrivalBand[]): string {
  return bands.map((b) => `${b.share}:${formatDuration(b.withinMs)}`).join(',');
}

/** An option whose default is shown in --help as `shown` (e.g. "15m" rather than 900000). */
function opt<T>(flags: string, description: string, parse: (v: string) => T, value: T, shown: string): Option {
  return new Option(flags, description).argParser(parse).default(value, shown);
}

export function sandboxOptionsFromFlags(f: SandboxFlags): SandboxOptions {
  const traffic = f.traffic === null ? null : { turnsPerDay: f.traffic, arrival: f.trafficArrival, changes: f.trafficChanges };
  const problems = traffic ? trafficProblems(traffic) : [];
  if (problems.length > 0) throw new UsageError(`invalid traffic: ${problems.join('; ')}`);
  return defaultSandboxOptions({
    traffic,
    host: f.host, port: f.port, apiKeys: f.apiKey, nonEnterpriseKeys: f.nonEnterpriseKey, projects: f.project,
    conversations: f.conversations, historyDays: f.historyDays, seed: f.seed, live: f.live === true,
    liveTurnsPerMinute: f.liveRate,
    site: { pages: f.sitePages, feedbackPerDay: f.feedbackPerDay, searchesPerDay: f.searchesPerDay, viewsPerDay: f.viewsPerDay },
    rateLimit: f.rateLimit, faultRate: f.faultRate, faults: f.faults,
    malformedRate: f.malformedRate, latencyMs: f.latency, cursorTtlMs: f.cursorTtl,
    hugeRecordBytes: f.hugeRecord, endlessCursor: f.endlessCursor === true,
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
    .addOption(opt('--traffic <turns/window>', 'steady traffic per project, e.g. 100000/d, over --history-days and on (replaces --conversations and --live)',
      trafficArg, null, 'none').conflicts(['conversations', 'live', 'liveRate']))
    .addOption(opt('--traffic-arrival <bands>', 'traffic: late arrivals, SHARE:WITHIN bands', arrivalArg,
      DEFAULT_TRAFFIC_MODEL.arrival, showBands(DEFAULT_TRAFFIC_MODEL.arrival)))
    .addOption(opt('--traffic-changes <share:min-max>', 'traffic: share of turns whose category/status change later, and when',
      changesArg, DEFAULT_TRAFFIC_MODEL.changes, '0.3:2h-12h'))
    .option('--site-pages <n>', 'pages of each project\'s docs site (feedback, searches, views, visitors)', intArg(1, MAX_SITE.pages), DEFAULT_SITE.pages)
    .option('--feedback-per-day <n>', 'feedback entries per project on an ordinary weekday', numberArg(0, MAX_SITE.feedbackPerDay), DEFAULT_SITE.feedbackPerDay)
    .option('--searches-per-day <n>', 'search events per project on an ordinary weekday', numberArg(0, MAX_SITE.searchesPerDay), DEFAULT_SITE.searchesPerDay)
    .option('--views-per-day <n>', 'human page views per project on an ordinary weekday', numberArg(0, MAX_SITE.viewsPerDay), DEFAULT_SITE.viewsPerDay)
    .addOption(opt('--rate-limit <n/window>', 'requests per organization per sliding window, or "none"', rateLimitOrNone, { limit: 100, windowMs: 3_600_000 }, '100/1h'))
    .option('--fault-rate <p>', 'probability of a fault per analytics request (0..1)', numberArg(0, 1), 0)
    .addOption(opt('--faults <list>', `faults to inject, from ${FAULT_KINDS.join(',')}`, faultsArg, DEFAULT_FAULTS, DEFAULT_FAULTS.join(',')))
    .option('--malformed-rate <p>', 'fraction of records that are persistently malformed (0..1)', numberArg(0, 1), 0)
    .addOption(opt('--latency <duration>', 'added latency per analytics request, e.g. 50ms', durationArg, 0, '0ms'))
    .addOption(opt('--cursor-ttl <duration>', 'issued cursors expire after this, or "none"', durationOrNone, null, 'none'))
    .option('--huge-record <bytes>', 'one assistant turn per project is served padded by this many bytes, on every read (0: off)', intArg(0, 2 ** 31), 0)
    .option('--endless-cursor', 'the feedback endpoint never ends: fresh cursors and empty pages after its last page')
    .addOption(opt('--job-duration <duration>', 'static export: time for a job to complete', durationArg, 3000, '3s'))
    .option('--fail-domain <domain>', 'static export: jobs for this domain fail (repeatable)',
      repeatable(DEFAULT_FAIL_DOMAINS, '--fail-domain'), DEFAULT_FAIL_DOMAINS)
    .addOption(opt('--bundle-ttl <duration>', 'static export: lifetime of a presigned bundle link', durationArg, 15 * 60_000, '15m'))
    .option('--pages-per-site <n>', 'static export: pages of an exported site', intArg(1, 10_000), 25)
    .addHelpText('after', `
Durations take a unit: 50ms, 3s, 15m, 1h. The default rate limit is the real API's (100/1h).
--traffic generates turns from the seed and the clock (no timers), up to 7 days after start: e.g.
--traffic 1000000/d --history-days 2 serves 2M turns at start and 1M more each day.
All eight analytics endpoints are served; feedback, searches, views and visitors come from each
project's site activity over the same span (--site-pages, --feedback-per-day, ...).
Test-only control routes (no auth, loopback clients only): /__sandbox/truth, /__sandbox/requests,
/__sandbox/feedback-truth, /__sandbox/aggregate, /__sandbox/thread, /__sandbox/expire-cursors,
/__sandbox/configure.`)
    .action(async (flags: SandboxFlags) => {
      const { startSandbox } = await import('../../tools/sandbox/server.js');
      const sandbox = await startSandbox({ ...sandboxOptionsFromFlags(flags), logger: ctx.logger });
      ctx.stdout.write(`listening on ${sandbox.url}\n`);
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await sandbox.close();
      setExitCode(EXIT.ok);
    });
