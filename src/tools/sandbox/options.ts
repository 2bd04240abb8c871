// Options of the local twin of the API. Shared by the analytics part (src/tools/sandbox/*) and the static
// export part (src/tools/sandbox/static-export/*); `docs-etl sandbox` maps its flags onto these.
import type { Clock } from '../../core/clock.js';
import type { RateLimit } from '../../core/duration.js';
import type { Logger } from '../../core/logger.js';

/** The fixed key the sandbox accepts when none is given (shown in `docs-etl sandbox --help`). */
export const DEMO_API_KEY = 'mint_sandbox_demo_key';
export const DEMO_PROJECT_ID = 'demo';

export type FaultKind = 'http5xx' | 'reset' | 'malformed' | 'repeat' | 'truncate';

/** A share of turns and how long after their timestamp they become visible at the latest. */
export interface ArrivalBand {
  share: number;
  withinMs: number;
}

export interface TrafficOptions {
  turnsPerDay: number;
  /**
   * Late arrivals, bands in ascending `withinMs`, shares summing to 1: a turn of band k becomes
   * visible between the previous band's `withinMs` (the first band: 1 s) and its own after its
   * timestamp. Default: 90% within 5 min, 9% within 3 h, 1% within 20 h.
   */
  arrival: ArrivalBand[];
  /**
   * Later changes: `share` of the turns change `queryCategory` and/or `resolutionStatus` between
   * `minMs` and `maxMs` after their timestamp; before that instant they are served in their first
   * version. Default: 30% between 2 h and 12 h.
   */
  changes: { share: number; minMs: number; maxMs: number };
}

/**
 * The docs site's activity behind the other analytics endpoints (feedback, searches, views,
 * visitors), per project, over the `historyDays` before start and on as the clock advances (up to
 * 7 days after start), whatever the assistant's mode. Weekends are quieter (×0.55); in each
 * aligned 14-day block a "release day" (Monday–Thursday, by seed) is busier (feedback ×5, views
 * and searches ×1.6) and so is the day after it (feedback ×1.85, views and searches ×1.2).
 */
export interface SiteOptions {
  /** Pages of each project's docs site (the corpus pages first, then generated ones). */
  pages: number;
  /** Feedback entries on an ordinary weekday. */
  feedbackPerDay: number;
  /** Search events (hits) on an ordinary weekday. */
  searchesPerDay: number;
  /** Human content views on an ordinary weekday (AI traffic comes on top). */
  viewsPerDay: number;
}

export interface SandboxOptions {
  host: string;                 // always loopback by default: 127.0.0.1
  port: number;                 // 0 = any free port
  /** Accepted admin keys; each key is one organization (rate limit per key). */
  apiKeys: string[];
  /** Accepted keys of organizations without the enterprise plan: analytics OK, static export 403. */
  nonEnterpriseKeys: string[];
  /** Projects that exist (others → 404). Every key may read every project. */
  projects: string[];
  /**
   * Exports a project does not have (its endpoint answers 404 "Not found" while the others answer),
   * by project id: endpoint paths after `/v1/analytics/{projectId}`, e.g. `{ demo: ['/searches'] }`.
   */
  missingEndpoints?: Record<string, string[]>;
  /** Turns of history per project, spread over `historyDays` before the sandbox's start time (not with `traffic`). */
  conversations: number;
  historyDays: number;
  seed: number;
  /** New turns keep arriving (a pure function of the clock: no timers), some late, some re-categorized (not with `traffic`). */
  live: boolean;
  /** Live arrival rate, turns per minute per project. */
  liveTurnsPerMinute: number;
  /**
   * Steady traffic (null = off): `turnsPerDay` turns per project over the `historyDays` before
   * start and on as the clock advances (up to 7 days after start), with late arrivals and later
   * changes. When set it replaces the `conversations` history and the `live` arrivals.
   */
  traffic: TrafficOptions | null;
  /** The site activity behind feedback, searches, views and visitors. */
  site: SiteOptions;
  /** Per-organization sliding window; null = unlimited. */
  rateLimit: RateLimit | null;
  /** Probability of a fault per request (analytics) among `faults`. */
  faultRate: number;
  faults: FaultKind[];
  /** Fraction of records (assistant turns and feedback entries) that are malformed (persistently: the same records every read, chosen by seed). */
  malformedRate: number;
  /** Added latency per request, ms. */
  latencyMs: number;
  /** Issued cursors older than this are rejected with 400 (null = never expire). */
  cursorTtlMs: number | null;
  /** One assistant turn per project padded by this many bytes on every read (0 = off; limit-faults.ts). */
  hugeRecordBytes?: number;
  /** The feedback endpoint pages for ever: fresh cursors and empty pages after its last page (limit-faults.ts). */
  endlessCursor?: boolean;
  staticExport: {
    /** Time from start to completed (queued for the first 10%). */
    jobDurationMs: number;
    /** Jobs for these domains fail halfway with an error. */
    failDomains: string[];
    /** Lifetime of a presigned bundle link. */
    bundleTtlMs: number;
    /** Pages per exported site when `paths` is not given. */
    pagesPerSite: number;
    /** The next N bundle downloads are damaged (truncated or corrupted) — for tests. */
    damagedDownloads: number;
  };
  clock: Clock;
  /** Optional: request lines (method, path, status; never the Authorization header) at debug level. */
  logger?: Logger;
}
