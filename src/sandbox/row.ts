// One served row (a turn) and how it looks at a given instant.
import type { ConversationTurnInput } from '../contracts/analytics.js';
import { malform } from './malformed.js';

/** A turn as the API serves it: the contract's input shape plus any extra fields. */
export type ServedTurn = ConversationTurnInput & Record<string, unknown>;

export interface Row {
  /** Keyset position (ULID, see row-ids.ts). Never changes, even when the content does. */
  rowId: string;
  /** The instant of `record.timestamp`: what dateFrom/dateTo filter on. */
  timestampMs: number;
  /** Analytics arrive late: the row is served only from this instant on. */
  visibleAt: number;
  /** When set (live mode), `queryCategory` is served as null before this instant. */
  categorizedAt: number | null;
  /** The final content (category filled in). */
  record: ServedTurn;
  /** Uniform draw fixed per row: the row is malformed while `malformU < malformedRate`. */
  malformU: number;
  /** Which malformation the row gets when it is malformed. */
  malformKind: number;
}

export interface RenderOptions {
  now: number;
  live: boolean;
  malformedRate: number;
}

export function isMalformed(row: Row, malformedRate: number): boolean {
  return row.malformU < malformedRate;
}

/** The JSON value served for a row at `now` (a fresh object each call). */
export function render(row: Row, o: RenderOptions): Record<string, unknown> {
  let rec: Record<string, unknown> = row.record;
  if (o.live && row.categorizedAt !== null && o.now < row.categorizedAt) rec = { ...rec, queryCategory: null };
  if (isMalformed(row, o.malformedRate)) return malform(rec, row.malformKind);
  return structuredClone(rec);
}
