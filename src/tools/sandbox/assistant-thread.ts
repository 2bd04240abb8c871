// GET …/assistant/threads/{threadId}: the transcript of one assistant conversation. The thread id
// is the conversation's `id` in the export (a ULID whose time part is its first turn's instant).
// Messages: for each turn in order, the user's message (the turn's `query`, at its timestamp)
// and the assistant's (its `response`, 0.8–12.8 s later and before the next turn), with the
// texts the export serves now for that turn. The transcript is live while the export lags: it
// holds every turn whose timestamp has passed, visible in the export or not yet, and an answer
// only once its instant has passed. A thread none of whose turns has started yet is unknown (404).
import { decodeTime } from 'ulid';
import { conversationId, formatInstant } from './conversation-factory.js';
import { mix32 } from './prng.js';
import type { RowBlock } from './row-block.js';
import { render } from './row.js';

export interface ThreadMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
}

export interface AssistantThread {
  threadId: string;
  createdAt: string;
  messages: ThreadMessage[];
}

/** ULIDs (as the OpenAPI `format: ulid`): 26 Crockford base32 characters, the first one 0–7. */
export const THREAD_ID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i;
/** A conversation's last turn is at most 4 gaps of 6 minutes after its first. */
const SPAN_MS = 25 * 60_000;

/** The thread at `now` (`live`: the sandbox's live mode, as the export renders with), or null when unknown. */
export function findThread(blocks: readonly RowBlock[], threadId: string, now: number, live: boolean): AssistantThread | null {
  if (!THREAD_ID.test(threadId)) return null;
  const id = threadId.toUpperCase();
  const start = decodeTime(id);
  if (start > now) return null;
  // The block holding the conversation's first turn, and the conversation's number in its source.
  let found: { src: RowBlock['src']; conv: number } | null = null;
  for (const b of blocks) {
    if (found || b.length === 0 || start < b.minTs || start > b.maxTs) continue;
    const { ts, turn, conv } = b.cols;
    for (let i = 0; i < b.length; i++) {
      if (ts[i] !== start || turn[i] !== 0) continue;
      const c = conv[i]!;
      if (conversationId(b.src.streamKey, c, b.src.convStart[c]!) === id) {
        found = { src: b.src, conv: c };
        break;
      }
    }
  }
  if (!found) return null;
  const turns: { block: RowBlock; pos: number; ts: number }[] = [];
  for (const b of blocks) {
    if (b.src !== found.src || b.maxTs < start || b.minTs > start + SPAN_MS) continue;
    for (let i = 0; i < b.length; i++) {
      if (b.cols.conv[i] === found.conv && b.cols.ts[i]! <= now) turns.push({ block: b, pos: i, ts: b.cols.ts[i]! });
    }
  }
  turns.sort((x, y) => x.block.cols.turn[x.pos]! - y.block.cols.turn[y.pos]!);
  const messages: ThreadMessage[] = [];
  // The texts of the clean record the export serves now (a malformed export row is still a real turn).
  const ro = { now, live, malformedRate: 0 };
  turns.forEach((t, k) => {
    const rec = render(t.block, t.pos, ro);
    const n = t.block.cols.turn[t.pos]!;
    const next = turns[k + 1]?.ts ?? Infinity;
    const answerAt = Math.min(t.ts + 800 + (mix32(found!.src.mixKey, found!.conv, n) % 12_000), t.ts + Math.floor((next - t.ts) / 2));
    messages.push({ id: messageId(found!.src.streamKey, found!.conv, 2 * n, t.ts), role: 'user', content: String(rec.query), createdAt: formatInstant(t.ts, 0) });
    if (answerAt <= now) {
      messages.push({ id: messageId(found!.src.streamKey, found!.conv, 2 * n + 1, answerAt), role: 'assistant', content: String(rec.response), createdAt: formatInstant(answerAt, 0) });
    }
  });
  return { threadId: id, createdAt: formatInstant(start, 0), messages };
}

/** A message's id: a ULID of its instant from its own stream. */
function messageId(streamKey: number, conv: number, index: number, atMs: number): string {
  return conversationId(mix32(streamKey, 0x4d5347, index), conv, atMs);
}
