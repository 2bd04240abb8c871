// The hourly placement's candidate search (src/outputs/topics/topic-index.ts), on gap_topic_terms
// rows in a real DuckDB: the language rule, the threshold, the cut to 24 candidates by the score on
// the question's candidate words, ties by topic id, and topics added during a placement.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../src/warehouse/warehouse.js';
import { loadTopicIndex, type QuestionVector } from '../../src/outputs/topics/topic-index.js';

type Row = [topic: string, language: string, term: string, weight: number];

let wh: Warehouse;
beforeEach(async () => {
  wh = await openWarehouse(':memory:');
});
afterEach(() => wh.close());

async function index(rows: Row[]) {
  for (const [topic, language, term, weight] of rows) {
    await wh.conn.run('INSERT INTO gap_topic_terms VALUES ($p, $t, $l, $term, $w)', { p: 'p', t: topic, l: language, term, w: weight });
  }
  // Another project's topic: never a candidate.
  await wh.conn.run("INSERT INTO gap_topic_terms VALUES ('other', 't_0', 'en', 'w:okta', 1.0)");
  return loadTopicIndex(wh.conn, 'p');
}

/** A question vector: every `w:` term a candidate word. */
function q(language: string, terms: Record<string, number>): QuestionVector {
  const names = Object.keys(terms);
  return { language, terms: names, weights: Float64Array.from(names, (t) => terms[t]!), cand: names.flatMap((t, k) => (t.startsWith('w:') ? [k] : [])) };
}

describe('topic index', () => {
  it('joins only a topic of a language the question may join (the same, or undetermined and the main language)', async () => {
    const idx = await index([
      ['t_de', 'de', 'w:okta', 0.8], ['t_de', 'de', 'w:sso', 0.6],
      ['t_en', 'en', 'w:okta', 0.6], ['t_en', 'en', 'w:sso', 0.8],
      ['t_und', 'und', 'w:okta', 1.0],
    ]);
    const okta = { 'w:okta': 0.8, 'w:sso': 0.6 }; // cosine: t_de 1.0, t_en 0.96, t_und 0.8
    expect(idx.nearest(q('en', okta), 'en', 0.3)?.topic).toBe('t_en');
    expect(idx.nearest(q('de', okta), 'en', 0.3)?.topic).toBe('t_de');
    expect(idx.nearest(q('fr', okta), 'en', 0.3)).toBeUndefined();
    expect(idx.nearest(q('und', okta), 'en', 0.3)?.topic).toBe('t_en');
    expect(idx.nearest(q('und', okta), 'de', 0.3)?.topic).toBe('t_de');
    expect(idx.nearest(q('und', okta), 'fr', 0.3)?.topic).toBe('t_und');
    // An undetermined topic takes the main language's questions only.
    expect(idx.nearest(q('en', { 'w:okta': 1 }), 'en', 0.3)?.topic).toBe('t_und');
    expect(idx.nearest(q('en', { 'w:okta': 1 }), 'de', 0.3)?.topic).toBe('t_en');
  });

  it('joins at the threshold, not under it, with the cosine over all the topic\'s terms', async () => {
    const idx = await index([['t_a', 'en', 'w:key', 0.5], ['t_a', 'en', 'c:key', 0.5]]);
    const hit = idx.nearest(q('en', { 'w:key': 0.5, 'c:key': 0.5 }), 'en', 0.5);
    expect(hit).toEqual({ topic: 't_a', sim: 0.5 });
    expect(idx.nearest(q('en', { 'w:key': 0.5, 'c:key': 0.5 }), 'en', 0.5000001)).toBeUndefined();
    // Trigrams alone find no candidate.
    expect(idx.nearest(q('en', { 'c:key': 1 }), 'en', 0.1)).toBeUndefined();
  });

  it('scores in full the 24 topics best on the candidate words only; equal ones by the smaller id', async () => {
    // 24 topics score 0.54 on the candidate word; t_z only 0.30 there, but 0.99 with its trigram.
    const many = Array.from({ length: 24 }, (_, i): Row[] => [[`t_a${String(i).padStart(2, '0')}`, 'en', 'w:x', 0.9], [`t_a${String(i).padStart(2, '0')}`, 'en', 'w:y', 0.436]]).flat();
    const z: Row[] = [['t_z', 'en', 'w:x', 0.5], ['t_z', 'en', 'c:abc', 0.866]];
    const question = { 'w:x': 0.6, 'c:abc': 0.8 };
    expect((await index([...many, ...z])).nearest(q('en', question), 'en', 0.3)?.topic).toBe('t_a00');
    await wh.conn.run("DELETE FROM gap_topic_terms WHERE topic_id = 't_a23'");
    expect((await index([])).nearest(q('en', question), 'en', 0.3)?.topic).toBe('t_z');
  });

  it('cuts topics tied on the candidate words at the 24th by id: the larger ids are not scored', async () => {
    // 25 topics score 0.3 on the candidate word; t_b24 would be the most similar, t_b00 next.
    const rows = Array.from({ length: 25 }, (_, i): Row => [`t_b${String(i).padStart(2, '0')}`, 'en', 'w:x', 0.5]);
    const idx = await index([...rows, ['t_b24', 'en', 'c:abc', 0.8], ['t_b00', 'en', 'c:abd', 0.7]]);
    expect(idx.nearest(q('en', { 'w:x': 0.6, 'c:abc': 0.5, 'c:abd': 0.5 }), 'en', 0.3)?.topic).toBe('t_b00');
  });

  it('finds a topic added during the placement', async () => {
    const idx = await index([['t_a', 'en', 'w:billing', 1]]);
    expect(idx.nearest(q('en', { 'w:invoice': 1 }), 'en', 0.3)).toBeUndefined();
    idx.add('t_new', 'en', [{ term: 'w:invoice', weight: 0.8 }, { term: 'c:inv', weight: 0.6 }]);
    expect(idx.nearest(q('en', { 'w:invoice': 0.6, 'c:inv': 0.8 }), 'en', 0.3)).toEqual({ topic: 't_new', sim: 0.6 * 0.8 + 0.8 * 0.6 });
    expect(idx.snapshot().ids).toEqual(['t_a', 't_new']);
  });
});
