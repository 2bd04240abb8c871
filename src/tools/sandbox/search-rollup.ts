// Search terms per day (GET …/searches): per (day, term) the hits and the clicks on the term's two
// candidate result pages, pure functions of (seed, project, day, term), spread over the hours and
// made visible with a lag by rollup-time.ts.
// - hits: Poisson around the day's volume × the term's Zipf popularity (seeded order).
// - ctr = clicks / hits over the range (0..1, 4 decimals); 15% of the terms find nothing worth
//   clicking (ctr 0, topClickedPage null). Clicks go to page A or B by a share that varies by day,
//   so a term's top clicked page can differ between ranges; topClickedPage is null without clicks.
// - lastSearchedAt: an instant in the last included hour with a visible hit (UTC ISO, ms), never
//   after `now`.
// Answer: the terms with hits > 0, by hits desc then searchQuery; totalSearches = the sum of hits.
import { formatInstant } from './conversation-factory.js';
import { normal, poisson, unit } from './count-draws.js';
import { hashSeed, rngFor, shuffled } from './prng.js';
import { inHour, rangeDays, visibleOf, type ActivityBounds } from './rollup-time.js';
import { dayFactor, HOUR } from './site-calendar.js';
import { pageAt, type SitePages } from './site-pages.js';
import { SEARCH_TERMS } from './search-terms.js';

/** Release days bring more readers (and searches), follow-up days a few more. */
const BOOSTS = { release: 1.6, followUp: 1.2 };

export interface SearchItem {
  searchQuery: string;
  hits: number;
  ctr: number;
  topClickedPage: string | null;
  lastSearchedAt: string;
}

export interface SearchAnswer {
  /** Every term with hits in the range, in served order (unpaged). */
  searches: SearchItem[];
  totalSearches: number;
}

interface DayCounts {
  hits: Uint32Array;
  clicksA: Uint32Array;
  clicksB: Uint32Array;
}

export interface SearchRollupParams {
  seed: number;
  projectId: string;
  site: SitePages;
  profile: Float64Array;
  searchesPerDay: number;
  bounds: ActivityBounds;
}

export class SearchRollup {
  private readonly days = new Map<number, DayCounts>();
  private readonly key: number;
  private readonly weight: Float64Array;
  private readonly ctr: Float64Array;
  private readonly pageA: Uint16Array;
  private readonly pageB: Uint16Array;

  constructor(private readonly p: SearchRollupParams) {
    this.key = hashSeed(p.seed, p.projectId, 'searches');
    const n = SEARCH_TERMS.length;
    const order = shuffled(rngFor(p.seed, p.projectId, 'search-ranks'), Array.from({ length: n }, (_, i) => i));
    this.weight = new Float64Array(n);
    order.forEach((term, rank) => (this.weight[term] = 1 / (rank + 1)));
    const sum = this.weight.reduce((a, b) => a + b, 0);
    this.ctr = new Float64Array(n);
    this.pageA = new Uint16Array(n);
    this.pageB = new Uint16Array(n);
    for (let t = 0; t < n; t++) {
      this.weight[t] = this.weight[t]! / sum;
      this.ctr[t] = unit(this.key, t, 1) < 0.15 ? 0 : 0.15 + 0.6 * unit(this.key, t, 2);
      this.pageA[t] = pageAt(p.site, unit(this.key, t, 3));
      const b = pageAt(p.site, unit(this.key, t, 4));
      this.pageB[t] = b === this.pageA[t] ? (b + 1) % p.site.paths.length : b;
    }
  }

  private day(d: number): DayCounts {
    let c = this.days.get(d);
    if (c) return c;
    const n = SEARCH_TERMS.length;
    c = { hits: new Uint32Array(n), clicksA: new Uint32Array(n), clicksB: new Uint32Array(n) };
    const k = this.key;
    const volume = this.p.searchesPerDay * dayFactor(this.p.seed, this.p.projectId, d, BOOSTS) * (0.9 + 0.2 * unit(k, d, 0));
    for (let t = 0; t < n; t++) {
      const a = d * 65_536 + t;
      const hits = poisson(volume * this.weight[t]! * Math.exp(0.3 * normal(k, a, 5) - 0.045), unit(k, a, 6), normal(k, a, 7));
      if (hits === 0) continue;
      const clicks = this.ctr[t]! > 0 ? Math.min(hits, poisson(hits * this.ctr[t]!, unit(k, a, 8), normal(k, a, 9))) : 0;
      const toA = Math.round(clicks * (0.05 + 0.9 * unit(k, a, 10)));
      c.hits[t] = hits;
      c.clicksA[t] = toA;
      c.clicksB[t] = clicks - toA;
    }
    this.days.set(d, c);
    return c;
  }

  /** GET …/searches for [fromMs, toMs) at `now`, unpaged. */
  answer(fromMs: number | null, toMs: number | null, now: number): SearchAnswer {
    const n = SEARCH_TERMS.length;
    const [hits, clicksA, clicksB, last] = [new Float64Array(n), new Float64Array(n), new Float64Array(n), new Float64Array(n)];
    const cum = this.p.profile;
    for (const rd of rangeDays(fromMs, toMs, this.p.bounds, now)) {
      const c = this.day(rd.day);
      for (let t = 0; t < n; t++) {
        const all = c.hits[t]!;
        const v = visibleOf(cum, all, rd);
        if (v === 0) continue;
        // Clicks follow the visible hits in proportion, so a partial day keeps the day's ctr.
        const a = Math.round((v * c.clicksA[t]!) / all);
        hits[t] = hits[t]! + v;
        clicksA[t] = clicksA[t]! + a;
        clicksB[t] = clicksB[t]! + Math.min(v - a, Math.round((v * c.clicksB[t]!) / all));
        // Days come oldest first: the last one with a visible hit sets lastSearchedAt.
        for (let h = 23; h >= 0; h--) {
          if (Math.floor(inHour(cum, all, h) * rd.share[h]!) === 0) continue;
          const hs = rd.start + h * HOUR;
          last[t] = hs + Math.floor(unit(this.key ^ 0x68e31da4, rd.day * 24 + h, t) * Math.min(HOUR - 1, now - hs));
          break;
        }
      }
    }
    const searches: SearchItem[] = [];
    let totalSearches = 0;
    for (let t = 0; t < n; t++) {
      if (hits[t] === 0) continue;
      const clicks = clicksA[t]! + clicksB[t]!;
      totalSearches += hits[t]!;
      searches.push({
        searchQuery: SEARCH_TERMS[t]!,
        hits: hits[t]!,
        ctr: Math.round((clicks / hits[t]!) * 10_000) / 10_000,
        topClickedPage: clicks === 0 ? null : this.p.site.paths[clicksA[t]! >= clicksB[t]! ? this.pageA[t]! : this.pageB[t]!]!,
        lastSearchedAt: formatInstant(last[t]!, 0),
      });
    }
    searches.sort(compareSearches);
    return { searches, totalSearches };
  }
}

/** Served order: hits desc, then searchQuery (code units). */
export function compareSearches(a: { hits: number; searchQuery: string }, b: { hits: number; searchQuery: string }): number {
  return b.hits - a.hits || (a.searchQuery < b.searchQuery ? -1 : a.searchQuery > b.searchQuery ? 1 : 0);
}
