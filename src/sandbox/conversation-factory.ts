// Builds one multi-turn conversation from a seeded Rng: the turns share `id` (a ULID, like the
// real thread ids) and have distinct millisecond timestamps seconds to minutes apart. The mix
// follows the contract: ~20% unanswered, ~5% clarifying questions, some records without
// `responseType` (it defaults to `answer`), ~10% null categories, 0–5 sources on the project's
// docs site, pageUrl sometimes null, a few unknown extra fields, some non-UTC offsets.
import { ulid } from 'ulid';
import {
  CATEGORIES, DOCS_PAGES, makeAnswer, makeClarifyingQuestion, makeQuery, makeUnansweredResponse,
} from './corpus.js';
import { chance, int, pick, shuffled, type Rng } from './prng.js';
import type { ServedTurn } from './row.js';

export interface TurnDraft {
  timestampMs: number;
  record: ServedTurn;
}

/** Offsets (minutes) timestamps may be served with; the instant is what matters. */
const OFFSETS = [120, -300, 330, 540];

/** ISO 8601 with milliseconds, in UTC (`Z`) or shifted to the given offset (`+02:00`). */
export function formatInstant(ms: number, offsetMinutes: number): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(offsetMinutes);
  const sign = offsetMinutes < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
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

export function makeConversation(rng: Rng, siteUrl: string, timestamps: number[]): TurnDraft[] {
  const id = ulid(timestamps[0], rng);
  const startPage = pick(rng, DOCS_PAGES);
  const pageUrl = chance(rng, 0.15) ? null : `${siteUrl}/${startPage.path}`;
  const mainCategory = pick(rng, CATEGORIES);
  return timestamps.map((ts) => ({ timestampMs: ts, record: makeTurn(rng, { id, ts, pageUrl, mainCategory, siteUrl }) }));
}

interface TurnContext {
  id: string;
  ts: number;
  pageUrl: string | null;
  mainCategory: string;
  siteUrl: string;
}

function makeTurn(rng: Rng, c: TurnContext): ServedTurn {
  const query = makeQuery(rng);
  const clarifying = chance(rng, 0.05);
  const unanswered = !clarifying && chance(rng, 0.21);
  const response = clarifying ? makeClarifyingQuestion(rng) : unanswered ? makeUnansweredResponse(rng) : makeAnswer(rng, query);
  const sourceCount = clarifying ? 0 : unanswered ? (chance(rng, 0.3) ? 1 : 0) : int(rng, 0, 5);
  const sources = shuffled(rng, DOCS_PAGES).slice(0, sourceCount).map((p) => ({ title: p.title, url: `${c.siteUrl}/${p.path}` }));
  const category = chance(rng, 0.1) ? null : chance(rng, 0.8) ? c.mainCategory : pick(rng, CATEGORIES);
  const offset = chance(rng, 0.25) ? pick(rng, OFFSETS) : 0;
  const omitType = !clarifying && chance(rng, 0.3);

  const rec: ServedTurn = { id: c.id, timestamp: formatInstant(c.ts, offset), query, response } as ServedTurn;
  if (!omitType) rec.responseType = clarifying ? 'clarifying_question' : 'answer';
  rec.sources = sources;
  rec.resolutionStatus = unanswered ? 'unanswered' : 'answered';
  rec.queryCategory = category;
  rec.pageUrl = c.pageUrl;
  // Fields the contract does not name: clients must tolerate and keep them.
  if (chance(rng, 0.08)) rec.locale = pick(rng, ['de', 'fr', 'ja', 'pt-BR']);
  if (chance(rng, 0.04)) rec.assistantVersion = int(rng, 2, 4);
  return rec;
}
