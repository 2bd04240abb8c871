// The grouping's quality over many datasets, not one: 20 seeded samples of the sandbox's gap
// questions (600 unanswered turns each, the size of a small site's month), clustered with the
// default options and scored against the truth the sandbox keeps for every text it can serve.
// Every sample must reach pairwise precision and recall ≥ 0.8 (issue 22's bar); the end-to-end test
// (topics.test.ts) measures the same on a synced warehouse.
import { describe, expect, it } from 'vitest';
import { gapTruthOf, makeGapQuestion } from '../../src/tools/sandbox/gap-questions.js';
import { mulberry32 } from '../../src/tools/sandbox/prng.js';
import { clusterQuestions } from '../../src/outputs/topics/cluster-questions.js';

const pairs = (n: number) => (n * (n - 1)) / 2;

function score(seed: number, turns: number): { precision: number; recall: number } {
  const rng = mulberry32(seed);
  const counts = new Map<string, number>();
  for (let i = 0; i < turns; i++) {
    const q = makeGapQuestion(rng);
    counts.set(q, (counts.get(q) ?? 0) + 1);
  }
  const questions = [...counts].map(([text, count]) => ({ text, count }));
  const { topicOf } = clusterQuestions(questions);
  const cell = new Map<string, number>();
  const truth = new Map<string, number>();
  const topic = new Map<number, number>();
  questions.forEach((q, i) => {
    const t = gapTruthOf(q.text);
    if (!t) return;
    const c = `${t.label}\u0000${topicOf[i]}`;
    cell.set(c, (cell.get(c) ?? 0) + 1);
    truth.set(t.label, (truth.get(t.label) ?? 0) + 1);
    topic.set(topicOf[i]!, (topic.get(topicOf[i]!) ?? 0) + 1);
  });
  const sum = (m: Map<unknown, number>) => [...m.values()].reduce((a, n) => a + pairs(n), 0);
  return { precision: sum(cell) / sum(topic), recall: sum(cell) / sum(truth) };
}

describe('gap topic clustering quality', () => {
  it('reaches pairwise precision and recall ≥ 0.8 on each of 20 samples of the sandbox\'s questions', () => {
    const scores = Array.from({ length: 20 }, (_, k) => ({ seed: 1000 + k, ...score(1000 + k, 600) }));
    const min = (k: 'precision' | 'recall') => Math.min(...scores.map((s) => s[k]));
    const avg = (k: 'precision' | 'recall') => scores.reduce((a, s) => a + s[k], 0) / scores.length;
    console.log(`20 samples: precision min ${min('precision').toFixed(3)} avg ${avg('precision').toFixed(3)}, recall min ${min('recall').toFixed(3)} avg ${avg('recall').toFixed(3)}`);
    for (const s of scores) {
      expect(s.precision, `seed ${s.seed}`).toBeGreaterThanOrEqual(0.8);
      expect(s.recall, `seed ${s.seed}`).toBeGreaterThanOrEqual(0.8);
    }
  }, 60_000);
});
