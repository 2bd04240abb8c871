// The words the sandbox's assistant conversations are made of: categories, the pages of the
// project's docs site, and question/answer texts. Texts deliberately carry unicode (é, 日本語,
// emoji), quotes, backslashes and newlines, so clients prove they round-trip them.
import { CATEGORIES } from './categories.js';
import { DEMO_PROJECT_ID } from './options.js';
import { chance, int, pick, type Rng } from './prng.js';

/** Auto-assigned query categories (the served `queryCategory`, or null). */
export { CATEGORIES };

/** Pages of every sandbox docs site (path without leading slash or extension, and title). */
export const DOCS_PAGES: readonly { path: string; title: string }[] = [
  { path: 'index', title: 'Introduction' },
  { path: 'quickstart', title: 'Quickstart' },
  { path: 'guides/getting-started', title: 'Getting started' },
  { path: 'guides/authentication', title: 'Authentication' },
  { path: 'guides/api-keys', title: 'API keys' },
  { path: 'guides/webhooks', title: 'Webhooks' },
  { path: 'guides/pagination', title: 'Pagination' },
  { path: 'guides/rate-limits', title: 'Rate limits' },
  { path: 'guides/errors', title: 'Errors & retries' },
  { path: 'guides/deployment', title: 'Deploying your docs' },
  { path: 'guides/custom-domain', title: 'Custom domains' },
  { path: 'guides/theming', title: 'Theming — colours & fonts' },
  { path: 'guides/localization', title: 'Localization (i18n) 🌍' },
  { path: 'integrations/github', title: 'GitHub' },
  { path: 'integrations/slack', title: 'Slack' },
  { path: 'integrations/analytics', title: 'Analytics integrations' },
  { path: 'billing/plans', title: 'Plans & pricing' },
  { path: 'billing/invoices', title: 'Invoices' },
  { path: 'api-reference/introduction', title: 'API reference' },
  { path: 'api-reference/projects/list', title: 'List projects' },
  { path: 'api-reference/projects/create', title: 'Create a project' },
  { path: 'api-reference/users/get', title: 'Get a user' },
  { path: 'troubleshooting/faq', title: 'FAQ' },
  { path: 'troubleshooting/build-errors', title: 'Build errors' },
  { path: 'changelog', title: 'Changelog' },
];

/** A docs site's links, built once per project: every page as a source, and as a page URL. */
export interface SiteLinks {
  sources: readonly { readonly title: string; readonly url: string }[];
  pageUrls: readonly string[];
}

export function siteLinks(siteUrl: string): SiteLinks {
  const pageUrls = DOCS_PAGES.map((p) => [siteUrl, '/', p.path].join(''));
  return { pageUrls, sources: DOCS_PAGES.map((p, i) => Object.freeze({ title: p.title, url: pageUrls[i]! })) };
}

/** Base URL of a project's docs site: the demo project is docs.example.com. */
export function docsSiteUrl(projectId: string): string {
  if (projectId === DEMO_PROJECT_ID) return 'https://docs.example.com';
  const slug = projectId.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'project';
  return `https://${slug}.mintlify.app`;
}

const TOPICS = [
  'an API key', 'the webhook secret', 'a custom domain', 'SSO with Okta', 'the GitHub app',
  'pagination cursors', 'rate limits', 'dark mode', 'the OpenAPI playground', 'versioned docs',
  'the Slack integration', 'invoices', 'a redirect', 'search indexing', 'the CLI',
];

const ACTIONS = ['set up', 'rotate', 'configure', 'remove', 'debug', 'migrate', 'enable', 'test'];

/** Questions with awkward characters: the JSON round trip must keep every one intact. */
const ODD_QUERIES = [
  'Comment configurer l\'authentification unique ? Ça ne marche pas avec « SAML » 🙁',
  '日本語のドキュメントはありますか？',
  'Why does my path "C:\\Users\\me\\docs" break the build?',
  'Error: unexpected token `}` in mint.json\nline 12, column 4 — what does it mean?',
  'Can I embed a 🚀 emoji in a page title?',
  'Ist die API DSGVO-konform? Grüße aus München',
  'my webhook says {"error": "invalid signature"}; why?',
  'tab\tseparated\tquestion with trailing spaces   ',
  'Что такое cursor pagination?',
  'How do I escape a backslash \\ in MDX?',
];

/**
 * Every ordinary question, built once: "How do I <action> <topic>?" with no suffix or " I tried
 * N times already." (N = 2..9), at index (action · topics + topic) · 9 + suffix. Served strings
 * come from this table (and ODD_QUERIES), so they are flat constants: serializing them is cheap.
 */
const QUERY_TABLE: readonly string[] = ACTIONS.flatMap((a) => TOPICS.flatMap((t) => {
  const q = ['How do I ', a, ' ', t, '?'].join('');
  return [q, ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => [q, ' I tried ', String(n), ' times already.'].join(''))];
}));

export function makeQuery(rng: Rng): string {
  if (chance(rng, 0.25)) return pick(rng, ODD_QUERIES);
  const base = (Math.floor(rng() * ACTIONS.length) * TOPICS.length + Math.floor(rng() * TOPICS.length)) * 9;
  return QUERY_TABLE[base + (chance(rng, 0.2) ? int(rng, 1, 8) : 0)]!;
}

export function makeAnswer(rng: Rng, query: string): string {
  const lines = [
    `Here is how to handle that (you asked: "${query.slice(0, 40)}").`,
    '',
    `1. Open the dashboard and go to **Settings → ${pick(rng, ['API keys', 'Domains', 'Integrations', 'Billing'])}**.`,
    `2. Run \`docs ${pick(rng, ACTIONS).replace(' ', '-')}\` from your project root.`,
  ];
  if (chance(rng, 0.3)) lines.push('', '```json\n{"path": "C:\\\\docs", "enabled": true}\n```');
  if (chance(rng, 0.15)) lines.push('', 'Voilà — c\'est réglé ✅');
  return lines.join('\n');
}

export function makeUnansweredResponse(rng: Rng): string {
  return pick(rng, [
    'I could not find anything about that in the documentation.',
    'Sorry, the docs don\'t cover this yet. Try contacting support.',
    'Je n\'ai pas trouvé de réponse dans la documentation. 🤷',
  ]);
}

export function makeClarifyingQuestion(rng: Rng): string {
  return pick(rng, [
    'Which plan are you on: Hobby, Pro or Enterprise?',
    'Do you mean the REST API or the "Index" API?',
    'Are you deploying with GitHub or GitLab?',
    'Which version of the CLI are you using (`docs --version`)?',
  ]);
}
