// One UTC day of a project's feedback entries as compact columns (no record objects), generated
// from (seed, project, day) alone: the entries of a day do not depend on the sandbox's start.
// Index i = one entry, in creation order (ts ascending); its sequence number day·2^21 + gen[i]
// is its identity (render streams, cursors, order).
//
// The model:
// - Volume: `feedbackPerDay` on an ordinary weekday, ×0.55 on weekends, ×5 on the release day of
//   each 14-day block and ×1.85 on its follow-up day (site-calendar.ts), ±10%. Creation instants
//   follow the diurnal profile. With the defaults (300 a day, 800 pages) this gives, for
//   GET …/feedback/by-page over a day: weekends ≤ 100 pages; ordinary weekdays > 100 pages but
//   ≤ 100 per source; follow-up days > 100 for some source but (nearly always) ≤ 100 per source
//   and status; release days > 100 even per source and status (a client must mark them truncated).
// - Source: contextual 45%, thumbs_only 30%, code_snippet 15%, agent 10%. The page follows the
//   site's popularity. Contextual: helpful 62%, a contact email on a quarter of those with a comment.
// - Comment null: thumbs_only 96%, contextual 45%, code_snippet 30%, agent 5%. `createdAt` null: 2%.
// - Late arrival: visible 1 s–2 min after creation (90%), up to 3 h (9%), up to 24 h (1%).
// - Review (a pure function of the clock): pending at creation. A reviewed entry becomes
//   in_progress 1–12 h after creation and, for 85% of them, resolved (70%) or dismissed 1–36 h
//   later; 20% of the reviewed ones are dismissed directly, 30 min–24 h after creation. The share
//   reviewed depends on the source (thumbs_only 8% … code_snippet 75%); the others stay pending.
//   Every status is final at most 48 h after creation.
import { chance, int, rngFor, type Rng } from './prng.js';
import { instantAt } from './rollup-time.js';
import { DAY, dayFactor, HOUR } from './site-calendar.js';
import { pageAt, type SitePages } from './site-pages.js';
import { stochasticRound } from './count-draws.js';

const MIN = 60_000;
/** Sequence numbers: day · 2^21 + generation index (at most ~2M entries a day). */
export const SEQ_PER_DAY = 2 ** 21;

/** Source codes: the enum's order in the contract. */
export const SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const;
export type FeedbackSource = (typeof SOURCES)[number];
export const STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const;
export type FeedbackStatus = (typeof STATUSES)[number];
export const [CODE_SNIPPET, CONTEXTUAL, AGENT, THUMBS_ONLY] = [0, 1, 2, 3];

/** Bits of `flags` above the 2-bit source code. */
export const HELPFUL = 4;
export const HAS_COMMENT = 8;
export const NULL_CREATED = 16;
export const HAS_CONTACT = 32;
/** A closed entry ends resolved (else dismissed). */
export const RESOLVED = 64;

export interface FeedbackDay {
  day: number;
  length: number;
  /** Generation index within the day (ascending; entries outside the sandbox's span are left out). */
  gen: Uint32Array;
  /** Creation instant (ms): what dateFrom/dateTo filter on; served as null when NULL_CREATED. */
  ts: Float64Array;
  /** visibleAt - ts. */
  delay: Uint32Array;
  /** ms after ts when it becomes in_progress; 0 = never. */
  reviewAt: Uint32Array;
  /** ms after ts when it is resolved or dismissed; 0 = never. */
  closeAt: Uint32Array;
  page: Uint16Array;
  flags: Uint8Array;
}

export interface FeedbackDayParams {
  seed: number;
  projectId: string;
  site: SitePages;
  profile: Float64Array;
  perDay: number;
  /** Entries created outside [origin, horizon) are left out. */
  origin: number;
  horizon: number;
}

const FEEDBACK_BOOSTS = { release: 5, followUp: 1.85 };
const COMMENT_SHARE = [0.7, 0.55, 0.95, 0.04];
const REVIEW_SHARE = [0.75, 0.25, 0.6, 0.08];
const REVIEW_SHARE_WITH_COMMENT = 0.7;

export function feedbackDay(p: FeedbackDayParams, day: number): FeedbackDay {
  const rng = rngFor(p.seed, p.projectId, 'feedback', day);
  const factor = dayFactor(p.seed, p.projectId, day, FEEDBACK_BOOSTS);
  const n = Math.min(SEQ_PER_DAY - 1, stochasticRound(p.perDay * factor * (0.9 + 0.2 * rng()), rng()));
  const cols = allocate(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    // Every draw happens for every entry, kept or not, so a kept entry never depends on the span.
    const ts = instantAt(p.profile, day * DAY, (i + rng()) / n);
    const d = drawEntry(rng, p.site);
    if (ts < p.origin || ts >= p.horizon) continue;
    cols.gen[k] = i;
    cols.ts[k] = ts;
    cols.delay[k] = d.delay;
    cols.reviewAt[k] = d.reviewAt;
    cols.closeAt[k] = d.closeAt;
    cols.page[k] = d.page;
    cols.flags[k] = d.flags;
    k++;
  }
  return { day, ...trim(cols, k) };
}

function drawEntry(rng: Rng, site: SitePages) {
  const r = rng();
  const source = r < 0.45 ? CONTEXTUAL : r < 0.75 ? THUMBS_ONLY : r < 0.9 ? CODE_SNIPPET : AGENT;
  const page = pageAt(site, rng());
  const comment = chance(rng, COMMENT_SHARE[source]!);
  const helpful = source === CONTEXTUAL && chance(rng, 0.62);
  const contact = source === CONTEXTUAL && comment && chance(rng, 0.25);
  const nullCreated = chance(rng, 0.02);
  const u = rng();
  const delay = u < 0.9 ? int(rng, 1000, 2 * MIN) : u < 0.99 ? int(rng, 2 * MIN, 3 * HOUR) : int(rng, 3 * HOUR, 24 * HOUR);
  let reviewAt = 0;
  let closeAt = 0;
  let resolved = false;
  if (chance(rng, source === CONTEXTUAL && comment ? REVIEW_SHARE_WITH_COMMENT : REVIEW_SHARE[source]!)) {
    if (chance(rng, 0.2)) closeAt = int(rng, 30 * MIN, 24 * HOUR);
    else {
      reviewAt = int(rng, HOUR, 12 * HOUR);
      if (chance(rng, 0.85)) {
        closeAt = reviewAt + int(rng, HOUR, 36 * HOUR);
        resolved = chance(rng, 0.7);
      }
    }
  }
  const flags = source | (helpful ? HELPFUL : 0) | (comment ? HAS_COMMENT : 0) | (nullCreated ? NULL_CREATED : 0)
    | (contact ? HAS_CONTACT : 0) | (resolved ? RESOLVED : 0);
  return { page, delay, reviewAt, closeAt, flags };
}

/** The status code (index in STATUSES) of entry i at `now`. */
export function statusAt(d: FeedbackDay, i: number, now: number): number {
  const t = d.ts[i]!;
  const close = d.closeAt[i]!;
  if (close !== 0 && now >= t + close) return (d.flags[i]! & RESOLVED) !== 0 ? 2 : 3;
  const review = d.reviewAt[i]!;
  return review !== 0 && now >= t + review ? 1 : 0;
}

export function sourceOf(d: FeedbackDay, i: number): number {
  return d.flags[i]! & 3;
}

export function seqOf(d: FeedbackDay, i: number): number {
  return d.day * SEQ_PER_DAY + d.gen[i]!;
}

/** Position of the entry with generation index `gen` in the day (or where it would be). */
export function indexOfGen(d: FeedbackDay, gen: number): number {
  let lo = 0;
  let hi = d.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (d.gen[mid]! < gen) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

type Cols = Omit<FeedbackDay, 'day'>;

function allocate(n: number): Cols {
  return {
    length: n, gen: new Uint32Array(n), ts: new Float64Array(n), delay: new Uint32Array(n), reviewAt: new Uint32Array(n),
    closeAt: new Uint32Array(n), page: new Uint16Array(n), flags: new Uint8Array(n),
  };
}

function trim(c: Cols, k: number): Cols {
  if (k === c.length) return c;
  return {
    length: k, gen: c.gen.slice(0, k), ts: c.ts.slice(0, k), delay: c.delay.slice(0, k), reviewAt: c.reviewAt.slice(0, k),
    closeAt: c.closeAt.slice(0, k), page: c.page.slice(0, k), flags: c.flags.slice(0, k),
  };
}
