// GET …/assistant/caller-stats: the assistant queries of a range by caller. The counted queries
// are exactly the assistant turns visible now whose timestamp is in [fromMs, toMs), malformed
// export rows included (the stats come from the assistant's own store, not from the export), so
// `total` equals the turns a complete client loads for that range plus the quarantined ones.
// The caller is a property of the conversation (every turn of it has the same): web 70%, api
// 22%, other 8%, by a hash of (stream, conversation).
import { mix32 } from './prng.js';
import type { RowBlock } from './row-block.js';

export interface CallerStats {
  web: number;
  api: number;
  other: number;
  total: number;
}

const WEB_BELOW = 0.7 * 4294967296;
const API_BELOW = 0.92 * 4294967296;

export function callerStats(blocks: readonly RowBlock[], now: number, fromMs: number | null, toMs: number | null): CallerStats {
  const from = fromMs ?? -Infinity;
  const to = toMs ?? Infinity;
  const out = { web: 0, api: 0, other: 0, total: 0 };
  for (const b of blocks) {
    if (b.length === 0 || b.maxTs < from || b.minTs >= to) continue;
    const { ts, delay, conv } = b.cols;
    const salt = b.src.mixKey ^ 0x1b873593;
    for (let i = 0, end = b.visibleEnd(now); i < end; i++) {
      const t = ts[i]!;
      if (t < from || t >= to || t + delay[i]! > now) continue;
      const h = mix32(salt, conv[i]!, 11);
      if (h < WEB_BELOW) out.web++;
      else if (h < API_BELOW) out.api++;
      else out.other++;
    }
  }
  out.total = out.web + out.api + out.other;
  return out;
}
