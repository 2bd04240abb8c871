// What people type into a docs site's search box: a fixed vocabulary (the same for every project;
// its popularity order is seeded per project). Terms carry the usual noise: typos, other
// languages, quotes, emoji, a backslash, stray spaces; clients must keep them byte for byte.

const KEYWORDS = [
  'webhook', 'webhooks', 'api key', 'api keys', 'authentication', 'auth', 'sso', 'saml', 'okta', 'oauth', 'token',
  'pagination', 'cursor', 'rate limit', 'rate limits', '429', 'errors', 'retry', 'timeout', 'custom domain', 'dns', 'ssl',
  'redirect', 'redirects', 'navigation', 'sidebar', 'search', 'analytics', 'feedback', 'assistant', 'versioning', 'versions',
  'localization', 'i18n', 'theme', 'dark mode', 'logo', 'favicon', 'snippets', 'code block', 'tabs', 'cards', 'callout',
  'openapi', 'playground', 'api reference', 'github', 'gitlab', 'slack', 'vercel', 'cli', 'install', 'quickstart',
  'pricing', 'billing', 'invoice', 'delete account', 'export', 'static export', 'mdx', 'markdown', 'images', 'video',
];
const QUALIFIERS = [
  'example', 'error', 'not working', 'setup', 'limit', 'python', 'node', 'curl', 'v2', 'docs', 'config', 'how to',
  'best practices', 'troubleshooting', 'migration', 'reference', 'tutorial', 'sdk', 'json', 'yaml',
];
const ACTIONS = ['how to', 'how do i', 'can i', 'why does', 'where is'];
const OBJECTS = [
  'add a webhook', 'rotate api key', 'change the logo', 'set up sso', 'use a custom domain', 'paginate results',
  'enable dark mode', 'add a redirect', 'hide a page', 'export analytics', 'invite a teammate', 'delete a project',
  'add code examples', 'fix a broken link', 'embed a video', 'translate docs',
];
const ODD = [
  'webhok', 'authentification', 'paginaton', 'ratelimit', 'api-key', 'API KEY', 'Webhooks ', ' sso',
  'clé api', 'schlüssel', 'ウェブフック', '認証', 'документация', 'c++ sdk', '"rate limit"', 'what\'s new', 'path\\to\\docs',
  'emoji 🚀', '🔑', '<script>', 'null', '', 'a',
];

/** Every term, most common shapes first; index = term number. Empty and duplicate strings are left out. */
export const SEARCH_TERMS: readonly string[] = (() => {
  const all = [
    ...KEYWORDS,
    ...KEYWORDS.flatMap((k) => QUALIFIERS.map((q) => `${k} ${q}`)),
    ...ACTIONS.flatMap((a) => OBJECTS.map((o) => `${a} ${o}`)),
    ...ODD,
  ];
  return [...new Set(all.filter((t) => t.length > 0))];
})();
