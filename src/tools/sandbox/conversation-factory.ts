// Conversations in two steps, so that millions of turns need no stored records.
// 1. Build time (a generator's sequential seeded stream): only what the compact columns keep is
//    drawn: turn count, timestamps (by the caller), the main category, each turn's class
//    (clarifying, unanswered, category).
// 2. Serve time: the rest of a turn (id, texts, sources, offset, extra fields) is rendered from its
//    own streams, (stream key, conversation) and (…, turn), where the stream key hashes (seed,
//    project, stream), so a record is a pure function of its key and its class.
// The mix follows the contract: ~20% unanswered, ~5% clarifying questions, some records without
// `responseType` (it defaults to `answer`), ~10% null categories, 0–5 sources on the project's docs
// site, pageUrl sometimes null, a few unknown extra fields, some non-UTC offsets. Turns of a
// conversation share `id` (a ULID, like the real thread ids) and have distinct timestamps. Unanswered
// turns ask paraphrases of a known set of gaps (gap-questions.ts), with their truth.
import {
  CATEGORIES, makeAnswer, makeClarifyingQuestion, makeQuery, makeUnansweredResponse, type SiteLinks,
} from './corpus.js';
import { makeGapQuestion } from './gap-questions.js';
import { chance, int, mix32, mulberry32, pick, type Rng } from './prng.js';
import type { ServedTurn } from './row.js';

/** Bits of a turn's `flags` column. */
export const UNANSWERED = 1;
/** The status before a later change (equal to UNANSWERED when nothing changes it). */
export const UNANSWERED_FIRST = 2;
export const CLARIFYING = 4;

import { CATEGORY_COUNT } from './categories.js';

export { CATEGORY_COUNT };

export function categoryOf(code: number): string | null {
  return code === 0 ? null : CATEGORIES[code - 1]!;
}

/** The class of a turn: what the columns keep and what later changes act on. */
export interface TurnClass {
  clarifying: boolean;
  unanswered: boolean;
  /** Category code (0 = null). */
  category: number;
}

/** Turns in a conversation: mostly one or two, sometimes up to five. */
export function drawTurnCount(rng: Rng): number {
  const r = rng();
  return r < 0.45 ? 1 : r < 0.75 ? 2 : r < 0.9 ? 3 : r < 0.97 ? 4 : 5;
}

/** Gap between the user messages of two consecutive turns: 2 s to 6 min, millisecond precision. */
export function drawTurnGap(rng: Rng): number {
  return int(rng, 2_000, 360_000);
}

/** The category most turns of a conversation share (a code ≥ 1). */
export function drawMainCategory(rng: Rng): number {
  return int(rng, 1, CATEGORY_COUNT);
}

export function drawTurnClass(rng: Rng, mainCategory: number): TurnClass {
  const clarifying = chance(rng, 0.05);
  const unanswered = !clarifying && chance(rng, 0.21);
  const category = chance(rng, 0.1) ? 0 : chance(rng, 0.8) ? mainCategory : drawMainCategory(rng);
  return { clarifying, unanswered, category };
}

/** Offsets (minutes) timestamps may be served with; the instant is what matters. */
const OFFSETS = [120, -300, 330, 540];
const OFFSET_SUFFIX = new Map(OFFSETS.map((m) => {
  const abs = Math.abs(m);
  return [m, `${m < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`];
}));

/** ISO 8601 with milliseconds, in UTC (`Z`) or shifted to the given offset (`+02:00`). */
export function formatInstant(ms: number, offsetMinutes: number): string {
  const local = isoCodes(ms + offsetMinutes * 60_000);
  if (offsetMinutes === 0) return String.fromCharCode(...local, 90 /* Z */);
  const suffix = OFFSET_SUFFIX.get(offsetMinutes) ?? formatOffset(offsetMinutes);
  return String.fromCharCode(...local) + suffix;
}

function formatOffset(m: number): string {
  const abs = Math.abs(m);
  return `${m < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const DAY_MS = 86_400_000;
const iso: number[] = new Array<number>(23);

/**
 * The char codes of `YYYY-MM-DDTHH:MM:SS.mmm` for an instant (years 0–9999), by arithmetic: about
 * 10× faster than Date#toISOString, which matters when a page renders 1000 of them. Civil date
 * from days since the epoch: H. Hinnant, "chrono-compatible low-level date algorithms".
 */
function isoCodes(ms: number): number[] {
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  put(0, y, 4);
  put(5, m, 2);
  put(8, d, 2);
  put(11, Math.floor(rest / 3_600_000), 2);
  rest %= 3_600_000;
  put(14, Math.floor(rest / 60_000), 2);
  rest %= 60_000;
  put(17, Math.floor(rest / 1000), 2);
  put(20, rest % 1000, 3);
  iso[4] = iso[7] = 45; // -
  iso[10] = 84; // T
  iso[13] = iso[16] = 58; // :
  iso[19] = 46; // .
  return iso;
}

/** Writes `value` as `width` decimal digits into iso[at…]. */
function put(at: number, value: number, width: number): void {
  for (let i = at + width - 1; i >= at; i--, value = Math.floor(value / 10)) iso[i] = 48 + (value % 10);
}

/** Where a turn's serve-time streams come from. */
export interface TurnKey {
  /** hashSeed(seed, project, stream): the generator's stream (history, or a timeline bucket). */
  streamKey: number;
  site: SiteLinks;
  /** Conversation number within the stream, and turn number within the conversation. */
  conv: number;
  turn: number;
  /** The conversation's first turn's instant: the time part of its id. */
  convStartMs: number;
  timestampMs: number;
}

/** The seeded streams of a conversation and of one of its turns (numeric: no string hashing per turn). */
const convRng = (streamKey: number, conv: number) => mulberry32(mix32(streamKey, conv, 0));
const turnRng = (streamKey: number, conv: number, turn: number) => mulberry32(mix32(streamKey, conv, turn + 1));
/** The stream of an unanswered turn's question: apart from turnRng, so its other draws stay as they were. */
const gapRng = (streamKey: number, conv: number, turn: number) => mulberry32(mix32(streamKey ^ 0x6a09e667, conv, turn + 1));

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const codes: number[] = new Array<number>(26);

/** A ULID: 10 chars of `timeMs`, 16 random chars (80 bits) from three draws of `rng` (one flat string). */
function seededUlid(timeMs: number, rng: Rng): string {
  let t = timeMs;
  for (let i = 9; i >= 0; i--) {
    codes[i] = CROCKFORD.charCodeAt(t % 32);
    t = Math.floor(t / 32);
  }
  for (let i = 10; i < 26; i += 6) {
    let bits = Math.floor(rng() * 4294967296); // 32 bits: six 5-bit chars
    for (let j = i; j < Math.min(i + 6, 26); j++, bits >>>= 5) codes[j] = CROCKFORD.charCodeAt(bits & 31);
  }
  return String.fromCharCode(...codes);
}

/** The conversation's id: a ULID of its first turn's instant and its own stream. */
export function conversationId(streamKey: number, conv: number, convStartMs: number): string {
  return seededUlid(convStartMs, convRng(streamKey, conv));
}

/** The record of one turn, as served for the given status and category (a fresh object). */
export function renderTurn(k: TurnKey, cls: { clarifying: boolean; unanswered: boolean; category: string | null }): ServedTurn {
  const conv = convRng(k.streamKey, k.conv);
  const id = seededUlid(k.convStartMs, conv);
  const pageUrl = chance(conv, 0.15) ? null : pick(conv, k.site.pageUrls);

  const rng = turnRng(k.streamKey, k.conv, k.turn);
  // An unanswered turn asks about one of the known gaps (gap-questions.ts); the draw of the
  // ordinary question still happens, so every later draw of the turn is the same.
  const ordinary = makeQuery(rng);
  const query = cls.unanswered ? makeGapQuestion(gapRng(k.streamKey, k.conv, k.turn)) : ordinary;
  const response = cls.clarifying ? makeClarifyingQuestion(rng) : cls.unanswered ? makeUnansweredResponse(rng) : makeAnswer(rng, query);
  const sourceCount = cls.clarifying ? 0 : cls.unanswered ? (chance(rng, 0.3) ? 1 : 0) : int(rng, 0, 5);
  const sources = distinct(rng, k.site.sources, sourceCount);
  const offset = chance(rng, 0.25) ? pick(rng, OFFSETS) : 0;
  const omitType = !cls.clarifying && chance(rng, 0.3);

  const rec = { id, timestamp: formatInstant(k.timestampMs, offset), query, response } as ServedTurn;
  if (!omitType) rec.responseType = cls.clarifying ? 'clarifying_question' : 'answer';
  rec.sources = sources;
  rec.resolutionStatus = cls.unanswered ? 'unanswered' : 'answered';
  rec.queryCategory = cls.category;
  rec.pageUrl = pageUrl;
  // Fields the contract does not name: clients must tolerate and keep them.
  if (chance(rng, 0.08)) rec.locale = pick(rng, ['de', 'fr', 'ja', 'pt-BR']);
  if (chance(rng, 0.04)) rec.assistantVersion = int(rng, 2, 4);
  return rec;
}

/** `count` distinct items in random order (count ≪ items: redraw a repeat; no per-call index array). */
function distinct<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const out: T[] = [];
  while (out.length < count) {
    const item = items[Math.floor(rng() * items.length)]!;
    if (!out.includes(item)) out.push(item);
  }
  return out;
}
