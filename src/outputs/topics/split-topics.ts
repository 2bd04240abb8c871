// The cohesion split of the clustering (issue 37 item 3): a topic whose members are not mutually
// similar is split. The greedy first pass compares a question with a topic's centroid only, and the
// merges compare topics' profiles: a chain of questions that each share a word with the next ("card
// declined" → "test card" → "test mode") can gather unrelated subjects and one-off questions into
// one catch-all topic. Here each topic's members are grouped again by average linkage over their
// pairwise cosines: two groups join only while the mean similarity of all their pairs reaches
// `cohesion`, so every topic left is mutually similar, and a one-off question stays alone.
// Bounded: topics of more than MAX_SPLIT members are split over their MAX_SPLIT most asked, the
// rest join the most similar part (O(MAX_SPLIT²) similarities a topic).
import type { Vector } from './cluster-questions.js';

export const MAX_SPLIT = 256;

/** Cosine of two unit sparse vectors (ids ascending is not assumed). */
function cosine(a: Vector, b: Vector, scratch: Map<number, number>): number {
  scratch.clear();
  for (let k = 0; k < a.ids.length; k++) scratch.set(a.ids[k]!, a.weights[k]!);
  let dot = 0;
  for (let k = 0; k < b.ids.length; k++) dot += (scratch.get(b.ids[k]!) ?? 0) * b.weights[k]!;
  return dot;
}

/**
 * The parts of one topic (`members` in the topic's order, the leader first): lists of members,
 * each part in the members' order, parts ordered by their first member. Average linkage: the two
 * parts with the highest mean pairwise cosine join while it is at least `cohesion`.
 */
export function splitByCohesion(members: readonly number[], vector: (i: number) => Vector, cohesion: number): number[][] {
  if (members.length < 2) return [members.slice()];
  const head = members.slice(0, MAX_SPLIT);
  const m = head.length;
  const vecs = head.map(vector);
  const scratch = new Map<number, number>();
  // sim[a][b]: sum of the pairwise cosines between parts a and b; size[a]: members of part a.
  const sim = Array.from({ length: m }, () => new Float64Array(m));
  for (let a = 0; a < m; a++) for (let b = a + 1; b < m; b++) sim[a]![b] = sim[b]![a] = cosine(vecs[a]!, vecs[b]!, scratch);
  // A cohesive topic (the mean cosine of all its pairs reaches `cohesion`) stays whole.
  let total = 0;
  for (let a = 0; a < m; a++) for (let b = a + 1; b < m; b++) total += sim[a]![b]!;
  if (total / ((m * (m - 1)) / 2) >= cohesion) return [members.slice()];
  const size = new Int32Array(m).fill(1);
  const alive = new Uint8Array(m).fill(1);
  const parts: number[][] = head.map((i) => [i]);
  for (;;) {
    let best = -1;
    let bestB = -1;
    let bestSim = cohesion;
    for (let a = 0; a < m; a++) {
      if (!alive[a]) continue;
      for (let b = a + 1; b < m; b++) {
        if (!alive[b]) continue;
        const avg = sim[a]![b]! / (size[a]! * size[b]!);
        if (avg > bestSim + 1e-12) [best, bestB, bestSim] = [a, b, avg];
      }
    }
    if (best < 0) break;
    // b joins a: sums add up (average linkage over all pairs).
    for (let c = 0; c < m; c++) {
      if (!alive[c] || c === best || c === bestB) continue;
      sim[best]![c] = sim[c]![best] = sim[best]![c]! + sim[bestB]![c]!;
    }
    size[best]! += size[bestB]!;
    alive[bestB] = 0;
    parts[best]!.push(...parts[bestB]!);
  }
  const pos = new Map(members.map((x, k) => [x, k]));
  const kept = parts.filter((_, a) => alive[a]).map((p) => p.sort((x, y) => pos.get(x)! - pos.get(y)!));
  // Members past MAX_SPLIT: each joins the part whose first members it is most similar to.
  for (const i of members.slice(MAX_SPLIT)) {
    const v = vector(i);
    let bestPart = 0;
    let bestSim = -1;
    kept.forEach((p, k) => {
      const s = p.slice(0, 8).reduce((acc, j) => acc + cosine(vecs[pos.get(j)!]!, v, scratch), 0) / Math.min(p.length, 8);
      if (s > bestSim) [bestPart, bestSim] = [k, s];
    });
    kept[bestPart]!.push(i);
  }
  return kept.sort((a, b) => pos.get(a[0]!)! - pos.get(b[0]!)!);
}

