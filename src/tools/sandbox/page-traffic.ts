// Views and visitors per page (GET …/views, GET …/visitors) from compact per-day counts: four
// numbers per (day, page), pure functions of (seed, project, day, page), spread over the hours and
// made visible with a lag by rollup-time.ts.
// - Views are events: a page's total = human + ai, and the site totals are the sums over pages.
// - Visitors are distinct people, so they do not add up: a page's total is deduplicated across
//   human and AI (total = human + ai - overlap, overlap = 10–40% of the smaller, per page); over a
//   range of k days a page's visitors are the sum of its daily visitors / (1 + 0.12·(k-1)) (people
//   come back); the site totals count a person once across pages (human / 1.7, ai / 1.3, total
//   minus 8% of the smaller). So total ≤ human + ai, and equal only when one side is zero.
// Items: the pages with a total > 0, ordered by total desc, then path.
import { normal, poisson, unit } from './count-draws.js';
import { hashSeed } from './prng.js';
import { rangeDays, visibleOf, type ActivityBounds, type RangeDay } from './rollup-time.js';
import { dayFactor } from './site-calendar.js';
import type { SitePages } from './site-pages.js';

/** Release days bring more readers (and searches), follow-up days a few more. */
const BOOSTS = { release: 1.6, followUp: 1.2 };

export interface TrafficTotals {
  human: number;
  ai: number;
  total: number;
}

export interface PageTrafficItem extends TrafficTotals {
  path: string;
}

export interface PageTrafficAnswer {
  totals: TrafficTotals;
  /** Every page with a total > 0, in served order (unpaged). */
  items: PageTrafficItem[];
}

interface DayCounts {
  humanViews: Uint32Array;
  aiViews: Uint32Array;
  humanVisitors: Uint32Array;
  aiVisitors: Uint32Array;
}

export interface PageTrafficParams {
  seed: number;
  projectId: string;
  site: SitePages;
  profile: Float64Array;
  viewsPerDay: number;
  bounds: ActivityBounds;
}

export class PageTraffic {
  private readonly days = new Map<number, DayCounts>();
  private readonly key: number;
  /** Per page: AI views per human view, and the share of the smaller audience also counted in the other. */
  private readonly aiRatio: Float64Array;
  private readonly overlap: Float64Array;

  constructor(private readonly p: PageTrafficParams) {
    this.key = hashSeed(p.seed, p.projectId, 'page-traffic');
    const n = p.site.paths.length;
    this.aiRatio = new Float64Array(n);
    this.overlap = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const share = 0.05 + 0.5 * unit(this.key, k, 1) ** 2;
      this.aiRatio[k] = share / (1 - share);
      this.overlap[k] = 0.1 + 0.3 * unit(this.key, k, 2);
    }
  }

  private day(d: number): DayCounts {
    let c = this.days.get(d);
    if (c) return c;
    const n = this.p.site.paths.length;
    c = { humanViews: new Uint32Array(n), aiViews: new Uint32Array(n), humanVisitors: new Uint32Array(n), aiVisitors: new Uint32Array(n) };
    const k = this.key;
    const volume = this.p.viewsPerDay * dayFactor(this.p.seed, this.p.projectId, d, BOOSTS) * (0.92 + 0.16 * unit(k, d, 0));
    for (let page = 0; page < n; page++) {
      const a = d * 65_536 + page;
      const mu = volume * this.p.site.weight[page]! * Math.exp(0.25 * normal(k, a, 3) - 0.03);
      const hv = poisson(mu, unit(k, a, 4), normal(k, a, 5));
      const av = poisson(mu * this.aiRatio[page]!, unit(k, a, 6), normal(k, a, 7));
      c.humanViews[page] = hv;
      c.aiViews[page] = av;
      c.humanVisitors[page] = hv > 0 ? Math.max(1, Math.round(hv * (0.55 + 0.3 * unit(k, a, 8)))) : 0;
      c.aiVisitors[page] = av > 0 ? Math.max(1, Math.round(av * (0.2 + 0.3 * unit(k, a, 9)))) : 0;
    }
    this.days.set(d, c);
    return c;
  }

  /** Visible sums over the range days of two per-page count columns. */
  private sums(days: RangeDay[], human: keyof DayCounts, ai: keyof DayCounts): [Float64Array, Float64Array] {
    const n = this.p.site.paths.length;
    const [h, a] = [new Float64Array(n), new Float64Array(n)];
    const cum = this.p.profile;
    for (const rd of days) {
      const c = this.day(rd.day);
      for (let page = 0; page < n; page++) {
        h[page] = h[page]! + visibleOf(cum, c[human][page]!, rd);
        a[page] = a[page]! + visibleOf(cum, c[ai][page]!, rd);
      }
    }
    return [h, a];
  }

  /** GET …/views for [fromMs, toMs) at `now`, unpaged. */
  views(fromMs: number | null, toMs: number | null, now: number): PageTrafficAnswer {
    const [h, a] = this.sums(rangeDays(fromMs, toMs, this.p.bounds, now), 'humanViews', 'aiViews');
    const totals = { human: 0, ai: 0, total: 0 };
    const items: PageTrafficItem[] = [];
    h.forEach((human, page) => {
      const ai = a[page]!;
      totals.human += human;
      totals.ai += ai;
      if (human + ai > 0) items.push({ path: this.p.site.paths[page]!, human, ai, total: human + ai });
    });
    totals.total = totals.human + totals.ai;
    return { totals, items: sortItems(items) };
  }

  /** GET …/visitors for [fromMs, toMs) at `now`, unpaged. */
  visitors(fromMs: number | null, toMs: number | null, now: number): PageTrafficAnswer {
    const days = rangeDays(fromMs, toMs, this.p.bounds, now);
    const [h, a] = this.sums(days, 'humanVisitors', 'aiVisitors');
    const returning = 1 + 0.12 * Math.max(0, days.length - 1);
    const distinct = (x: number) => (x > 0 ? Math.max(1, Math.round(x / returning)) : 0);
    let [sumHuman, sumAi] = [0, 0];
    const items: PageTrafficItem[] = [];
    h.forEach((hx, page) => {
      const human = distinct(hx);
      const ai = distinct(a[page]!);
      sumHuman += human;
      sumAi += ai;
      const total = human + ai - Math.floor(Math.min(human, ai) * this.overlap[page]!);
      if (total > 0) items.push({ path: this.p.site.paths[page]!, human, ai, total });
    });
    const human = sumHuman > 0 ? Math.max(1, Math.round(sumHuman / 1.7)) : 0;
    const ai = sumAi > 0 ? Math.max(1, Math.round(sumAi / 1.3)) : 0;
    return { totals: { human, ai, total: human + ai - Math.floor(Math.min(human, ai) * 0.08) }, items: sortItems(items) };
  }
}

function sortItems(items: PageTrafficItem[]): PageTrafficItem[] {
  return items.sort((x, y) => y.total - x.total || (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}
