// One served row (a turn) is a position in a block; its record is rendered on demand, a pure
// function of (seed, project, stream, conversation, turn), its class and the instant.
import type { ConversationTurnInput } from '../../contracts/analytics.js';
import {
  categoryOf, CLARIFYING, conversationId, renderTurn, UNANSWERED, UNANSWERED_FIRST,
} from './conversation-factory.js';
import { malform, MALFORMED_KIND_COUNT } from './malformed.js';
import { mix32 } from './prng.js';
import type { RowBlock } from './row-block.js';

/** A turn as the API serves it: the contract's input shape plus any extra fields. */
export type ServedTurn = ConversationTurnInput & Record<string, unknown>;

export interface RowRef {
  block: RowBlock;
  pos: number;
}

export interface RenderOptions {
  now: number;
  /** Live mode: the history's pending changes (categories filled in after start) apply. */
  live: boolean;
  malformedRate: number;
}

/** Uniform in [0, 1), fixed per turn: the turn is malformed while it is below `malformedRate`. */
export function malformDraw(block: RowBlock, pos: number): number {
  return mix32(block.src.mixKey, block.cols.conv[pos]!, block.cols.turn[pos]!) / 4294967296;
}

export function isMalformed(block: RowBlock, pos: number, malformedRate: number): boolean {
  return malformedRate > 0 && malformDraw(block, pos) < malformedRate;
}

/** True when the turn is served in its final version at `now`. */
export function isFinal(block: RowBlock, pos: number, o: { now: number; live: boolean }): boolean {
  const change = block.cols.change[pos]!;
  if (change === 0) return true;
  if (block.src.changes === 'live' && !o.live) return true;
  return o.now >= block.cols.ts[pos]! + change;
}

/** Category code and unanswered flag as served at `now`. */
export function servedClass(block: RowBlock, pos: number, o: { now: number; live: boolean }): { category: number; unanswered: boolean } {
  const flags = block.cols.flags[pos]!;
  return isFinal(block, pos, o)
    ? { category: block.cols.cat[pos]!, unanswered: (flags & UNANSWERED) !== 0 }
    : { category: block.cols.catFirst[pos]!, unanswered: (flags & UNANSWERED_FIRST) !== 0 };
}

/** The conversation id of a turn (cheaper than rendering it). */
export function rowConversationId(block: RowBlock, pos: number): string {
  const { src, cols } = block;
  const conv = cols.conv[pos]!;
  return conversationId(src.streamKey, conv, src.convStart[conv]!);
}

/** The JSON value served for a turn at `now` (a fresh object each call). */
export function render(block: RowBlock, pos: number, o: RenderOptions): Record<string, unknown> {
  const { src, cols } = block;
  const conv = cols.conv[pos]!;
  const cls = servedClass(block, pos, o);
  const rec = renderTurn(
    { streamKey: src.streamKey, site: src.site, conv, turn: cols.turn[pos]!, convStartMs: src.convStart[conv]!, timestampMs: cols.ts[pos]! },
    { clarifying: (cols.flags[pos]! & CLARIFYING) !== 0, unanswered: cls.unanswered, category: categoryOf(cls.category) },
  );
  if (isMalformed(block, pos, o.malformedRate)) {
    const kind = mix32(src.mixKey ^ 0x5bd1e995, conv, cols.turn[pos]!) % MALFORMED_KIND_COUNT;
    return malform(rec, kind);
  }
  return rec;
}
