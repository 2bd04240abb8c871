// The pages of a project's docs site as the aggregated endpoints name them: a path with a leading
// slash and no extension ("/guides/webhooks"). The corpus pages (corpus.ts) come first, then
// generated ones, enough for days with more than 100 pages with feedback and more than 250 pages
// with views. Popularity is Zipf-like over a seeded order of the pages, per project.
import { DOCS_PAGES } from './corpus.js';
import { rngFor, shuffled } from './prng.js';

const SECTIONS = ['guides', 'api-reference', 'integrations', 'components', 'settings', 'sdks', 'cli', 'concepts', 'recipes', 'deploy'];
const SUBJECTS = [
  'webhooks', 'api-keys', 'sso', 'okta', 'saml', 'oauth', 'pagination', 'rate-limits', 'errors', 'retries',
  'custom-domain', 'redirects', 'navigation', 'search', 'analytics', 'feedback', 'assistant', 'versioning', 'localization', 'theming',
  'snippets', 'code-blocks', 'tabs', 'cards', 'accordions', 'callouts', 'images', 'videos', 'openapi', 'playground',
  'github', 'gitlab', 'slack', 'discord', 'segment', 'posthog', 'mixpanel', 'vercel', 'netlify', 'cloudflare',
];
const LEAVES = ['overview', 'setup', 'reference', 'examples', 'troubleshooting', 'migration', 'limits', 'faq'];
/** A few paths with non-ASCII characters: clients must keep them byte for byte. */
const ODD_PATHS = ['/ja/はじめに', '/fr/démarrage-rapide', '/de/schnellstart-über-blick', '/guides/emoji-🚀-titles'];

export interface SitePages {
  /** Page paths, index = page number. */
  paths: readonly string[];
  /** Popularity share of each page (sums to 1). */
  weight: Float64Array;
  /** Cumulative popularity, for sampling a page: cdf[i] = share of pages < i (cdf[n] = 1). */
  cdf: Float64Array;
}

/** The first `count` page paths of every sandbox site (the same list for every project). */
export function pagePaths(count: number): string[] {
  const out = DOCS_PAGES.map((p) => `/${p.path}`).concat(ODD_PATHS);
  const seen = new Set(out);
  for (let i = 0; out.length < count; i++) {
    const section = SECTIONS[i % SECTIONS.length]!;
    const subject = SUBJECTS[Math.floor(i / SECTIONS.length) % SUBJECTS.length]!;
    const round = Math.floor(i / (SECTIONS.length * SUBJECTS.length));
    const path = round === 0 ? `/${section}/${subject}` : `/${section}/${subject}/${LEAVES[(round - 1) % LEAVES.length]!}${round > LEAVES.length ? `-${round}` : ''}`;
    // Paths are unique: a generated one that is also a corpus page is skipped.
    if (!seen.has(path)) {
      seen.add(path);
      out.push(path);
    }
  }
  return out.slice(0, Math.max(1, count));
}

export function sitePages(seed: number, projectId: string, count: number): SitePages {
  const paths = pagePaths(count);
  const n = paths.length;
  // Rank r (0 = most popular) gets weight 1/(r+1); the home page and the quickstart rank high.
  const rest = shuffled(rngFor(seed, projectId, 'page-ranks'), Array.from({ length: n }, (_, i) => i).filter((i) => i > 1));
  const order = [0, rest[0], 1, ...rest.slice(1)].filter((i): i is number => i !== undefined && i < n);
  const weight = new Float64Array(n);
  order.forEach((page, rank) => (weight[page] = 1 / (rank + 1)));
  const sum = weight.reduce((a, b) => a + b, 0);
  const cdf = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    weight[i] = weight[i]! / sum;
    cdf[i + 1] = cdf[i]! + weight[i]!;
  }
  cdf[n] = 1;
  return { paths, weight, cdf };
}

/** The page at popularity share u ∈ [0, 1) (binary search in the cdf). */
export function pageAt(site: SitePages, u: number): number {
  let lo = 0;
  let hi = site.paths.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (site.cdf[mid + 1]! <= u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
