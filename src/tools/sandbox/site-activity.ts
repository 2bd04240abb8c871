// One project's docs-site activity behind the other analytics endpoints: its pages, its diurnal
// profile, its feedback entries and its rollups (searches, views, visitors). Everything is a pure
// function of (seed, project, day) and the clock; the span is the sandbox's: from `historyDays`
// before start to the 7-day horizon after it (options.ts, SiteOptions).
import { TIMELINE_HORIZON_MS } from './dataset.js';
import { FeedbackStore } from './feedback-store.js';
import { MAX_SITE } from './defaults.js';
import type { SiteOptions } from './options.js';
import { PageTraffic } from './page-traffic.js';
import { hashSeed } from './prng.js';
import { hourProfile, type ActivityBounds } from './rollup-time.js';
import { SearchRollup } from './search-rollup.js';
import { DAY } from './site-calendar.js';
import { sitePages, type SitePages } from './site-pages.js';

export interface SiteActivityConfig {
  seed: number;
  projectId: string;
  startMs: number;
  historyDays: number;
  site: SiteOptions;
}

export class SiteActivity {
  readonly pages: SitePages;
  readonly bounds: ActivityBounds;
  readonly feedback: FeedbackStore;
  readonly traffic: PageTraffic;
  readonly searches: SearchRollup;

  constructor(c: SiteActivityConfig) {
    const { seed, projectId } = c;
    this.pages = sitePages(seed, projectId, c.site.pages);
    this.bounds = { origin: c.startMs - c.historyDays * DAY, horizon: c.startMs + TIMELINE_HORIZON_MS };
    const profile = hourProfile(seed, projectId);
    const common = { seed, projectId, site: this.pages, profile };
    this.feedback = new FeedbackStore(
      { ...common, perDay: c.site.feedbackPerDay, ...this.bounds },
      { key: hashSeed(seed, projectId, 'feedback-render'), site: this.pages },
    );
    this.traffic = new PageTraffic({ ...common, viewsPerDay: c.site.viewsPerDay, bounds: this.bounds });
    this.searches = new SearchRollup({ ...common, searchesPerDay: c.site.searchesPerDay, bounds: this.bounds });
  }
}

export { MAX_SITE };

/** The problems of site options, as sentences (empty = valid). */
export function siteProblems(s: SiteOptions): string[] {
  const out: string[] = [];
  if (!(Number.isInteger(s.pages) && s.pages >= 1 && s.pages <= MAX_SITE.pages)) out.push(`pages must be an integer from 1 to ${MAX_SITE.pages}`);
  for (const k of ['feedbackPerDay', 'searchesPerDay', 'viewsPerDay'] as const) {
    if (!(s[k] >= 0 && s[k] <= MAX_SITE[k])) out.push(`${k} must be from 0 to ${MAX_SITE[k]}`);
  }
  return out;
}
