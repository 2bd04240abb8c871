// The skimmer of an over-cap page of one record (src/sync/api/json-skim.ts): it keeps the envelope
// (the records list emptied), counts the records and keeps the head of their text, whatever the
// record holds (brackets, quotes, escapes, a field that looks like the envelope), and whatever the
// chunking of the body.
import { describe, expect, it } from 'vitest';
import { JsonSkimmer } from '../../src/sync/api/json-skim.js';
import { HEAD_BYTES } from '../../src/sync/pipeline/page-fetch.js';

function skim(text: string, chunk: number) {
  const s = new JsonSkimmer('conversations');
  const b = Buffer.from(text, 'utf8');
  for (let i = 0; i < b.length; i += chunk) s.feed(b.subarray(i, i + chunk));
  return s.result();
}

describe('JsonSkimmer', () => {
  const hostile = { id: 'c1', response: `x]}"nextCursor":"fake",[{ \\" \u00e9 ${'y'.repeat(10_000)}`, nested: [[{ a: '}' }]], nextCursor: 'inner' };
  const body = JSON.stringify({ hasMore: true, conversations: [hostile], nextCursor: 'real-cursor', extra: { a: [1, 2] } });

  it.each([1, 7, 4096, body.length])('keeps the envelope, counts the record and keeps its head (chunks of %i bytes)', (chunk) => {
    const r = skim(body, chunk);
    expect(r.envelope).toEqual({ hasMore: true, conversations: [], nextCursor: 'real-cursor', extra: { a: [1, 2] } });
    expect(r.records).toBe(1);
    expect(r.size).toBe(Buffer.byteLength(body));
    expect(r.head.startsWith('{"id":"c1","response":"x]}')).toBe(true);
    expect(Buffer.byteLength(r.head)).toBeLessThanOrEqual(HEAD_BYTES);
  });

  it('counts several records; an envelope cut short is null', () => {
    expect(skim(JSON.stringify({ conversations: [{ a: 1 }, { b: [2, 3] }, 'x,y'], nextCursor: null }), 3)).toMatchObject({ records: 3, envelope: { conversations: [], nextCursor: null } });
    expect(skim('{"conversations":[{"a":1}],"nextCursor":"c', 5).envelope).toBeNull();
  });
});
