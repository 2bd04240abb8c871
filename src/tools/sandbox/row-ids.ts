// Internal row ids: ULIDs that define the API's result order (keyset pagination; see keyset-merge.ts).
// Layout: 10 chars time + 4 chars project tag + 12 chars sequence. Within one project the tag is
// constant, so rowId order = (time, sequence) order, the OrderKey the blocks sort by:
// - timeline rows (live, traffic): time = when the row became visible, so a row that becomes
//   visible later always sorts after every cursor issued before: pages stay complete under arrivals;
// - history rows: time = the sandbox start and a shuffled sequence, which makes the served order
//   unrelated to `timestamp`.
import { encodeTime } from 'ulid';
import { hashSeed } from './prng.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;
const TAG_CHARS = 4;
const SEQ_CHARS = 12;

/** A row's position in keyset order: compare `time`, then `seq` (both safe integers). */
export interface OrderKey {
  time: number;
  seq: number;
}

/** Negative when a sorts before b. */
export function compareKeys(aTime: number, aSeq: number, bTime: number, bSeq: number): number {
  return aTime !== bTime ? aTime - bTime : aSeq - bSeq;
}

function base32(n: number, len: number): string {
  let out = '';
  let v = Math.floor(n);
  for (let i = 0; i < len; i++) {
    out = CROCKFORD[v % 32] + out;
    v = Math.floor(v / 32);
  }
  if (v > 0) throw new Error(`row sequence ${n} does not fit in ${len} base32 chars`);
  return out;
}

function fromBase32(text: string): number {
  let v = 0;
  for (const ch of text) {
    const d = CROCKFORD.indexOf(ch);
    if (d < 0) throw new Error(`not a base32 character: ${ch}`);
    v = v * 32 + d;
  }
  return v;
}

/** Four base32 chars derived from the project and seed (rowIds of different projects differ). */
export function projectTag(seed: number, projectId: string): string {
  return base32(hashSeed(seed, projectId, 'tag') % 32 ** TAG_CHARS, TAG_CHARS);
}

export function makeRowId(time: number, tag: string, sequence: number): string {
  return encodeTime(time, TIME_CHARS) + tag + base32(sequence, SEQ_CHARS);
}

/** The order key of a rowId (a cursor the sandbox issued; callers check that first). */
export function parseRowId(rowId: string): OrderKey {
  return { time: fromBase32(rowId.slice(0, TIME_CHARS)), seq: fromBase32(rowId.slice(TIME_CHARS + TAG_CHARS)) };
}
