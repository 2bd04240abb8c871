// Persistent faults at the client's limits (issue 33, item 7), on every read, unlike the drawn
// faults of faults.ts:
// - `hugeRecordBytes` (--huge-record BYTES): one assistant turn per project (the middle one of its
//   truth, in rowId order) is served with its `response` padded by that many bytes, so a client's
//   body cap meets one record far larger than the rest. Its truth is unchanged (the turn as it
//   would be without the padding).
// - `endlessCursor` (--endless-cursor): the feedback endpoint never ends: where its last page would
//   say `hasMore: false`, it says `true` with a fresh cursor, and every page after it is empty with
//   another fresh cursor.
import type { AnalyticsTwin } from './analytics-twin.js';

/** The cursors of an endless feedback chain: `endless.<n>`, never issued twice. */
export const ENDLESS_PREFIX = 'endless.';

/** The assistant turns of a page, the huge one (if on it) padded. */
export function withHugeRecord(twin: AnalyticsTwin, projectId: string, turns: Record<string, unknown>[]): Record<string, unknown>[] {
  const bytes = twin.opts.hugeRecordBytes ?? 0;
  if (bytes <= 0 || turns.length === 0) return turns;
  let key = twin.hugeTurns.get(projectId);
  if (key === undefined) {
    const truth = twin.truth(projectId);
    const t = truth[Math.floor(truth.length / 2)];
    key = t ? turnKey(t) : '';
    twin.hugeTurns.set(projectId, key);
  }
  return turns.map((t) => (turnKey(t) === key ? { ...t, response: `${String(t.response)}${' '.repeat(bytes)}` } : t));
}

function turnKey(t: { id?: unknown; timestamp?: unknown }): string {
  return `${String(t.id)}|${String(t.timestamp)}`;
}

/** The next cursor of an endless chain (fresh each time). */
export function endlessCursor(twin: AnalyticsTwin): string {
  return `${ENDLESS_PREFIX}${twin.endlessIssued++}`;
}
