// Persistently malformed records (malformedRate): each breaks the contract in one way that a
// client must quarantine rather than load. The kind is fixed per row, so reads are repeatable.

const KINDS: ((r: Record<string, unknown>) => void)[] = [
  (r) => { delete r.query; },
  (r) => { r.resolutionStatus = 'maybe'; },
  (r) => { r.timestamp = 'yesterday'; },
  (r) => { r.sources = 'none'; },
  (r) => { r.id = 42; },
  (r) => { r.sources = [{ title: 'Broken source' }]; },
];

export const MALFORMED_KIND_COUNT = KINDS.length;

export function malform(record: Record<string, unknown>, kind: number): Record<string, unknown> {
  const out = structuredClone(record);
  KINDS[kind % KINDS.length]!(out);
  return out;
}
