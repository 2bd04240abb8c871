// What the sandbox serves: complete keyset pagination equal to truth(), a non-chronological
// order, determinism by seed, and the shape mix the contract calls for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationTurnSchema, type ConversationTurn } from '../../src/contracts/analytics.js';
import { DOCS_PAGES } from '../../src/tools/sandbox/corpus.js';
import type { Sandbox } from '../../src/tools/sandbox/index.js';
import { FakeClock, instantOf, readAll, sandboxWith, START, turnKey } from './helpers.js';

let sb: Sandbox;
let truth: ConversationTurn[];
beforeAll(async () => {
  sb = await sandboxWith({ conversations: 5000 });
  truth = sb.truth('demo');
});
afterAll(() => sb.close());

describe('pagination', () => {
  it('following nextCursor with limit=1000 returns exactly truth(): none missing, no duplicates', async () => {
    const { records, pages } = await readAll(sb);
    expect(pages).toBe(5);
    expect(records.map((r) => conversationTurnSchema.parse(r))).toEqual(truth);
    expect(new Set(records.map(turnKey)).size).toBe(5000);
  });

  it('serves turns in an order that is not chronological', async () => {
    const { records } = await readAll(sb, 'demo', { limit: 200 });
    const ms = records.map((r) => instantOf(r.timestamp));
    const ascending = ms.every((t, i) => i === 0 || ms[i - 1]! <= t);
    const descending = ms.every((t, i) => i === 0 || ms[i - 1]! >= t);
    expect(ascending || descending).toBe(false);
    // and a page mixes days
    const days = new Set(ms.slice(0, 200).map((t) => new Date(t).toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThan(10);
  });
});

describe('determinism', () => {
  it('the same seed and start give the same data; another seed gives other data', async () => {
    const same = await sandboxWith({ conversations: 5000, clock: new FakeClock() });
    const other = await sandboxWith({ conversations: 5000, seed: 7 });
    try {
      expect(same.truth('demo')).toEqual(truth);
      expect((await readAll(same)).records).toEqual((await readAll(sb)).records);
      const otherKeys = new Set(other.truth('demo').map(turnKey));
      expect(truth.filter((t) => otherKeys.has(turnKey(t))).length).toBeLessThan(50);
    } finally {
      await same.close();
      await other.close();
    }
  });
});

describe('shape of the data', () => {
  const byId = () => {
    const m = new Map<string, ConversationTurn[]>();
    for (const t of truth) m.set(t.id, [...(m.get(t.id) ?? []), t]);
    return m;
  };

  it('spreads history over historyDays before start, all already visible, none in the last minutes', () => {
    const ms = truth.map((t) => instantOf(t.timestamp));
    expect(Math.max(...ms)).toBeLessThanOrEqual(START - 10 * 60_000);
    expect(Math.min(...ms)).toBeGreaterThanOrEqual(START - 30 * 86_400_000);
    expect(Math.min(...ms)).toBeLessThan(START - 29 * 86_400_000);
  });

  it('has multi-turn conversations with distinct timestamps, some crossing midnight UTC', () => {
    const convs = [...byId().values()];
    const multi = convs.filter((c) => c.length > 1);
    expect(multi.length).toBeGreaterThan(convs.length / 4);
    for (const c of multi) expect(new Set(c.map((t) => instantOf(t.timestamp))).size).toBe(c.length);
    const crossing = multi.filter((c) => new Set(c.map((t) => new Date(instantOf(t.timestamp)).toISOString().slice(0, 10))).size > 1);
    expect(crossing.length).toBeGreaterThan(3);
  });

  it('has ~20% unanswered, ~5% clarifying questions, ~10% null categories', () => {
    const share = (f: (t: ConversationTurn) => boolean) => truth.filter(f).length / truth.length;
    expect(share((t) => t.resolutionStatus === 'unanswered')).toBeGreaterThan(0.15);
    expect(share((t) => t.resolutionStatus === 'unanswered')).toBeLessThan(0.25);
    expect(share((t) => t.responseType === 'clarifying_question')).toBeGreaterThan(0.02);
    expect(share((t) => t.responseType === 'clarifying_question')).toBeLessThan(0.08);
    expect(share((t) => t.queryCategory === null)).toBeGreaterThan(0.05);
    expect(share((t) => t.queryCategory === null)).toBeLessThan(0.2);
    expect(new Set(truth.map((t) => t.queryCategory)).size).toBeGreaterThanOrEqual(9);
  });

  it('omits responseType on some served records, and serves some offsets and extra fields', async () => {
    const { records } = await readAll(sb);
    expect(records.some((r) => !('responseType' in r))).toBe(true);
    expect(records.some((r) => String(r.timestamp).endsWith('Z'))).toBe(true);
    expect(records.some((r) => /[+-]\d{2}:\d{2}$/.test(String(r.timestamp)))).toBe(true);
    expect(records.every((r) => /\.\d{3}(Z|[+-]\d{2}:\d{2})$/.test(String(r.timestamp)))).toBe(true);
    expect(records.some((r) => typeof r.locale === 'string')).toBe(true);
    // extra fields survive into truth (loose schema)
    expect(truth.some((t) => 'locale' in t)).toBe(true);
  });

  it('carries unicode, quotes, backslashes and newlines in texts', () => {
    const texts = truth.flatMap((t) => [t.query, t.response]);
    for (const re of [/é/, /日本語/, /\p{Extended_Pictographic}/u, /"/, /\\/, /\n/]) {
      expect(texts.some((s) => re.test(s)), String(re)).toBe(true);
    }
  });

  it('cites 0–5 sources on the docs site and sometimes has no pageUrl', () => {
    const urls = new Set(DOCS_PAGES.map((p) => `https://docs.example.com/${p.path}`));
    const counts = new Set(truth.map((t) => t.sources.length));
    expect([...counts].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(truth.every((t) => t.sources.every((s) => urls.has(s.url) && s.title !== ''))).toBe(true);
    expect(truth.some((t) => t.pageUrl === null)).toBe(true);
    expect(truth.some((t) => t.pageUrl !== null && urls.has(t.pageUrl))).toBe(true);
  });
});
