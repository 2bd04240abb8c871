// Defaults of the sandbox: loopback, any free port, the demo key and project, a month of history.
import { systemClock } from '../../core/clock.js';
import { DEMO_API_KEY, DEMO_PROJECT_ID, type SandboxOptions, type SiteOptions } from './options.js';

/** The site activity by default: enough feedback that some days have more than 100 pages with feedback. */
export const DEFAULT_SITE: SiteOptions = { pages: 800, feedbackPerDay: 300, searchesPerDay: 4000, viewsPerDay: 40_000 };

export function defaultSandboxOptions(overrides: Partial<SandboxOptions> = {}): SandboxOptions {
  const base: SandboxOptions = {
    host: '127.0.0.1',
    port: 0,
    apiKeys: [DEMO_API_KEY],
    nonEnterpriseKeys: [],
    projects: [DEMO_PROJECT_ID],
    conversations: 5000,
    historyDays: 30,
    seed: 42,
    live: false,
    liveTurnsPerMinute: 20,
    traffic: null,
    site: { ...DEFAULT_SITE },
    rateLimit: null,
    faultRate: 0,
    faults: [],
    malformedRate: 0,
    latencyMs: 0,
    cursorTtlMs: null,
    staticExport: {
      jobDurationMs: 3000,
      failDomains: ['fail.example.com'],
      bundleTtlMs: 15 * 60_000,
      pagesPerSite: 25,
      damagedDownloads: 0,
    },
    clock: systemClock,
  };
  return {
    ...base, ...overrides, site: { ...base.site, ...overrides.site }, staticExport: { ...base.staticExport, ...overrides.staticExport },
  };
}

/** Largest site options (page numbers are 16-bit; a day's feedback must fit its sequence space). */
export const MAX_SITE = { pages: 50_000, feedbackPerDay: 100_000, searchesPerDay: 100_000_000, viewsPerDay: 1_000_000_000 };
