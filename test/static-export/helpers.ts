// Helpers of the static export tests: a fake clock whose sleep advances time, a sandbox with small
// durations, raw HTTP calls, a captured logger and the deps of runStaticExport.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Clock } from '../../src/core/clock.js';
import { FakeClock as SharedFakeClock } from '../helpers/fake-clock.js';
import { httpCall, type Reply } from '../helpers/http.js';
import type { Logger } from '../../src/core/logger.js';
import { REDACT_PATHS } from '../../src/core/logger.js';
import { defaultSandboxOptions, startSandbox, type Sandbox, type SandboxOptions } from '../../src/tools/sandbox/index.js';
import type { StaticExportDeps } from '../../src/static-export/run.js';

export const KEY = 'mint_test_static_export_key_7d1f3a';
export const OTHER_KEY = 'mint_test_other_org_key_55aa01';
export const NON_ENTERPRISE_KEY = 'mint_test_not_enterprise_key_9c2e';
export const FAIL_DOMAIN = 'broken.example.com';
export const START = Date.UTC(2026, 10, 1, 9, 0, 0);

/** Settable; sleep() advances the fake time. */
export class FakeClock extends SharedFakeClock {
  constructor(ms = START) {
    super(ms);
  }
}

/** A client clock that reads `lagMs` behind another clock and sleeps on it (clock skew). */
export function laggingClock(base: FakeClock, lagMs: number): Clock {
  return { now: () => new Date(base.ms - lagMs), sleep: (ms, signal) => base.sleep(ms, signal) };
}

export type StaticExportOverrides = Partial<SandboxOptions['staticExport']>;

export function sandboxWith(clock: Clock, se: StaticExportOverrides = {}, more: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  return startSandbox(defaultSandboxOptions({
    clock, conversations: 0, apiKeys: [KEY, OTHER_KEY], nonEnterpriseKeys: [NON_ENTERPRISE_KEY],
    staticExport: { jobDurationMs: 10_000, failDomains: [FAIL_DOMAIN], bundleTtlMs: 60_000, pagesPerSite: 40, damagedDownloads: 0, ...se },
    ...more,
  }));
}

export type { Reply };

export function call(
  base: string, path: string, o: { key?: string | null; method?: string; body?: unknown; rawBody?: string } = {},
): Promise<Reply> {
  return httpCall(base, path, { ...o, key: o.key === undefined ? KEY : o.key });
}

/** A pino logger writing JSON lines into memory (same redaction as the real one). */
export function capturedLogger(): { logger: Logger; lines: () => string[]; text: () => string } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  const logger = pino({ level: 'debug', base: undefined, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
  const text = () => chunks.join('');
  return { logger, text, lines: () => text().split('\n').filter(Boolean) };
}

/** Fast deps: tiny backoff; the clock decides whether waiting costs real time. */
export function depsFor(sb: Sandbox, clock: Clock, logger: Logger, over: Partial<StaticExportDeps> = {}): StaticExportDeps {
  return {
    baseUrl: sb.url, apiKey: KEY, clock, logger,
    retry: { attempts: 4, baseMs: 10, maxMs: 50 }, random: () => 0.5, ...over,
  };
}
