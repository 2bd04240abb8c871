// Internal row ids: ULIDs that define the API's result order (keyset pagination; see dataset.ts).
// Layout: 10 chars time (when the row became visible) + 4 chars project tag + 12 chars sequence.
// Within one project the tag is constant, so rowId order = (visible time, sequence): a row that
// becomes visible later always sorts after every cursor issued before — pages stay complete
// under live arrivals. History rows share the start time and take a shuffled sequence, which
// makes the served order unrelated to `timestamp`.
import { encodeTime } from 'ulid';
import { hashSeed } from './prng.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

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

/** Four base32 chars derived from the project and seed (rowIds of different projects differ). */
export function projectTag(seed: number, projectId: string): string {
  return base32(hashSeed(seed, projectId, 'tag') % 32 ** 4, 4);
}

export function makeRowId(visibleAtMs: number, tag: string, sequence: number): string {
  return encodeTime(visibleAtMs, 10) + tag + base32(sequence, 12);
}
