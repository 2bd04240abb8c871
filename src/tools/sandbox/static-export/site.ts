// The documentation site the sandbox "exports" for a domain: a fixed core of pages (starting with
// the ones the analytics twin cites as https://<domain>/<path>) followed by seeded extra pages.
// Paths follow the contract's `paths` form: no leading slash, no extension, `index` for the root.
import { createHash } from 'node:crypto';
import { DOCS_PAGES } from '../corpus.js';

export interface SitePage {
  path: string;
  /** The title as text (decoded); the HTML writes it with entities. */
  title: string;
}

/**
 * Pages every site starts with, in this order: first the pages the analytics twin cites
 * (`DOCS_PAGES`, same titles), then pages whose titles exercise entities (`<`, `'`, `"`, `&`) and
 * unicode on purpose.
 */
export const CORE_PAGES: readonly SitePage[] = [
  ...DOCS_PAGES,
  { path: 'api-reference/endpoints/list', title: 'List documents' },
  { path: 'api-reference/endpoints/get', title: 'Get a document' },
  { path: 'guides/status-codes', title: 'Handling errors (status < 500)' },
  { path: 'guides/whats-new', title: "What's new: webhooks & <Tabs>" },
  { path: 'guides/internationalization', title: 'Internationalization — 日本語 & Español' },
  { path: 'guides/migrating', title: 'Migrating from v1 → v2' },
  { path: 'troubleshooting/indexing', title: 'FAQ: "Why isn\'t my page indexed?"' },
  { path: 'support', title: 'Café & support ☕' },
];

export const DEFAULT_PAGES_PER_SITE = 40;

const SECTIONS = ['guides', 'concepts', 'tutorials', 'integrations', 'api-reference/endpoints'];
const TOPICS = [
  'billing', 'search', 'navigation', 'themes', 'analytics', 'custom-domains', 'redirects', 'snippets',
  'components', 'versioning', 'localization', 'sso', 'permissions', 'previews', 'deployments', 'openapi',
  'assistant', 'feedback', 'seo', 'images', 'videos', 'code-blocks', 'tables', 'callouts', 'tabs', 'steps',
];

/**
 * The site's pages, deterministic for (domain, seed, count): the first `count` of the core pages,
 * then seeded `section/topic` pages up to `count`.
 */
export function sitePages(domain: string, seed: number, count = DEFAULT_PAGES_PER_SITE): SitePage[] {
  const n = Math.max(1, Math.floor(count));
  const pages = CORE_PAGES.slice(0, n).map((p) => ({ ...p }));
  const taken = new Set(pages.map((p) => p.path));
  const rand = seededRandom(`${domain.toLowerCase()}|${seed}`);
  for (let i = 0; pages.length < n; i++) {
    const section = SECTIONS[Math.floor(rand() * SECTIONS.length)]!;
    const topic = TOPICS[Math.floor(rand() * TOPICS.length)]!;
    // After the simple combinations run out, numbered pages keep paths unique.
    const path = i < 200 ? `${section}/${topic}` : `${section}/${topic}-${i}`;
    if (taken.has(path)) continue;
    taken.add(path);
    pages.push({ path, title: titleCase(topic) });
  }
  return pages;
}

function titleCase(slug: string): string {
  const words = slug.split('-');
  return words.map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

/** mulberry32 seeded from a sha256 of the text: stable across runs and platforms. */
export function seededRandom(text: string): () => number {
  let a = createHash('sha256').update(text).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
