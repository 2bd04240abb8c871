// A feedback entry as the API serves it, rendered on demand from its compact columns and its own
// seeded stream (seed, project, sequence number): the same entry renders the same every time,
// except `status`, which follows the clock. The three variants of the contract: contextual
// (+ helpful, contact), code_snippet (+ code, filename, lang), agent / thumbs_only (base fields).
import { formatInstant } from './conversation-factory.js';
import {
  CODE_SNIPPET, CONTEXTUAL, HAS_COMMENT, HAS_CONTACT, HELPFUL, NULL_CREATED, seqOf, sourceOf, SOURCES, statusAt, STATUSES,
  type FeedbackDay,
} from './feedback-day.js';
import { chance, mix32, mulberry32, pick, type Rng } from './prng.js';
import type { SitePages } from './site-pages.js';

const COMMENTS: Record<number, readonly string[]> = {
  [CONTEXTUAL]: [
    'This page was exactly what I needed, thanks!',
    'The example uses an old version of the SDK.',
    'Missing a section on how to rotate keys 🔑',
    'Le lien vers « Authentification » est cassé.',
    'Could you add a curl example?\nThe JS one does not help me.',
    'Step 3 says "Settings → API" but the menu is called "Developers".',
    '説明が分かりにくいです。',
    'Outdated: the dashboard looks different now.',
  ],
  [CODE_SNIPPET]: [
    'This snippet does not compile: missing import.',
    'The `--force` flag was removed in v2.',
    'Works, but the path should be "C:\\\\docs" on Windows.',
    'Please show the response body too.',
    'Typo in the header name: `Authorisation`.',
  ],
  [2 /* agent */]: [
    'The page does not state the default page size; agents guessed 50.',
    'Conflicting rate limits: 100/h here, 1000/h on the overview page.',
    'The OpenAPI example has a required field missing: "projectId".',
    'No information on error code 429 retries.',
  ],
  [3 /* thumbs_only */]: ['👍', 'ok', 'meh'],
};

const SNIPPETS = [
  'curl -H "Authorization: Bearer $KEY" https://api.example.com/v1/projects',
  'const client = new Client({ apiKey: process.env.API_KEY });\nawait client.projects.list();',
  'import docs\n\ndocs.init(api_key="…")\nprint(docs.search("webhooks"))',
  '{\n  "name": "Acme",\n  "colors": { "primary": "#0D9373" }\n}',
  'npm i -g docs-cli && docs dev --port 3000',
  'navigation:\n  - group: "Guides"\n    pages: ["quickstart"]',
];
const FILENAMES = ['example.sh', 'index.ts', 'client.js', 'main.py', 'docs.json', 'mint.yaml', 'README.md'];
const LANGS = ['bash', 'typescript', 'javascript', 'python', 'json', 'yaml'];
const HEX = '0123456789abcdef';

export interface FeedbackRenderContext {
  /** hashSeed(seed, project, 'feedback-render'). */
  key: number;
  site: SitePages;
}

/** The entry's id: 24 hex digits, an ObjectId-like value whose first 8 encode its creation second. */
export function feedbackId(key: number, seq: number, ts: number): string {
  const parts = [Math.floor(ts / 1000) >>> 0, mix32(key, seq, 1), mix32(key, seq, 2)];
  return parts.map((v) => {
    let s = '';
    for (let i = 7; i >= 0; i--) s += HEX[(v >>> (i * 4)) & 15];
    return s;
  }).join('');
}

/** The JSON value served for entry i of day d at `now` (a fresh object). */
export function renderFeedback(c: FeedbackRenderContext, d: FeedbackDay, i: number, now: number): Record<string, unknown> {
  const seq = seqOf(d, i);
  const flags = d.flags[i]!;
  const source = sourceOf(d, i);
  const rng = mulberry32(mix32(c.key, seq, 3));
  const rec: Record<string, unknown> = {
    id: feedbackId(c.key, seq, d.ts[i]!),
    path: c.site.paths[d.page[i]!],
    comment: (flags & HAS_COMMENT) !== 0 ? pick(rng, COMMENTS[source]!) : null,
    createdAt: (flags & NULL_CREATED) !== 0 ? null : formatInstant(d.ts[i]!, 0),
    source: SOURCES[source],
    status: STATUSES[statusAt(d, i, now)],
  };
  if (source === CONTEXTUAL) {
    rec.helpful = (flags & HELPFUL) !== 0;
    rec.contact = (flags & HAS_CONTACT) !== 0 ? email(rng) : null;
  } else if (source === CODE_SNIPPET) {
    rec.code = pick(rng, SNIPPETS);
    rec.filename = chance(rng, 0.3) ? null : pick(rng, FILENAMES);
    rec.lang = chance(rng, 0.1) ? null : pick(rng, LANGS);
  }
  return rec;
}

function email(rng: Rng): string {
  return `${pick(rng, ['ana', 'li.wei', 'jörg', 'sam+docs', 'o\'brien'])}@${pick(rng, ['example.com', 'acme.dev', 'mail.example.org'])}`;
}

/** Ways a persistently malformed entry breaks the contract (each fails every variant of the schema). */
const MALFORMATIONS: ((r: Record<string, unknown>) => void)[] = [
  (r) => { delete r.path; },
  (r) => { r.status = 'open'; },
  (r) => { r.source = 'email'; },
  (r) => { r.id = 42; },
  (r) => { r.createdAt = 1_773_576_000; },
  (r) => { r.comment = { text: 'nested' }; },
];

/** Uniform in [0, 1), fixed per entry: it is malformed while this is below `malformedRate`. */
export function isMalformedFeedback(c: FeedbackRenderContext, d: FeedbackDay, i: number, malformedRate: number): boolean {
  return malformedRate > 0 && mix32(c.key ^ 0x5bd1e995, seqOf(d, i), 4) / 4294967296 < malformedRate;
}

/** The entry as served: malformed (always the same way) when it is one of the malformed ones. */
export function servedFeedback(c: FeedbackRenderContext, d: FeedbackDay, i: number, now: number, malformedRate: number): Record<string, unknown> {
  const rec = renderFeedback(c, d, i, now);
  if (!isMalformedFeedback(c, d, i, malformedRate)) return rec;
  MALFORMATIONS[mix32(c.key ^ 0x27d4eb2f, seqOf(d, i), 5) % MALFORMATIONS.length]!(rec);
  return rec;
}
