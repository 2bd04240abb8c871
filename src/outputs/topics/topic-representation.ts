// What a topic is, for the next steps and for a writer (docs/topics.md):
//   - its representation: the mean of its members' unit TF-IDF vectors, cut to REPRESENTATION_TERMS
//     heaviest terms and made unit length again; an hourly step places a new question in the topic
//     whose representation is most similar (assign-new.ts);
//   - its medoid: the member most similar to that mean (the most representative question);
//   - its distinctive terms: class-based TF-IDF over the topics (the share of the topic's questions
//     using a word, times log(1 + mean words per topic / the word's uses in all topics)), as words.
// Big topics are described by their first MAX_MEMBERS members (the most asked): bounded work.
import type { Clustering } from './cluster-questions.js';
import { questionFeatures } from './question-features.js';

export const REPRESENTATION_TERMS = 24;
export const DISTINCTIVE_TERMS = 5;
const MAX_MEMBERS = 256;

export interface TopicDescription {
  terms: { term: string; weight: number }[];
  /** Index of the medoid question. */
  medoid: number;
}

/** Sum of unit vectors → the heaviest `max` terms, unit length; and the member nearest the mean. */
export function describe(members: readonly number[], vector: (i: number) => { terms: string[]; weights: ArrayLike<number> }): TopicDescription {
  const sum = new Map<string, number>();
  const some = members.slice(0, MAX_MEMBERS);
  for (const i of some) {
    const v = vector(i);
    v.terms.forEach((t, k) => sum.set(t, (sum.get(t) ?? 0) + v.weights[k]!));
  }
  let medoid = some[0]!;
  let best = -Infinity;
  if (some.length > 2) {
    for (const i of some) {
      const v = vector(i);
      let dot = 0;
      v.terms.forEach((t, k) => (dot += (sum.get(t) ?? 0) * v.weights[k]!));
      if (dot > best + 1e-12) [best, medoid] = [dot, i];
    }
  }
  const top = [...sum].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, REPRESENTATION_TERMS);
  const norm = Math.sqrt(top.reduce((a, [, w]) => a + w * w, 0)) || 1;
  return { terms: top.map(([term, w]) => ({ term, weight: w / norm })), medoid };
}

/** Every topic's description from a clustering's own features. */
export function describeTopics(c: Clustering): TopicDescription[] {
  const { names, vector } = c.model;
  const named = (i: number) => {
    const v = vector(i);
    return { terms: Array.from(v.ids, (id) => names[id]!), weights: v.weights };
  };
  return c.topics.map((t) => describe(t.members, named));
}

/**
 * Class-based TF-IDF over the topics' word stems, shown as the words their questions used.
 * `text(i)`: question i's text.
 */
export function distinctiveTerms(c: Clustering, text: (i: number) => string): string[][] {
  const { names } = c.model;
  const perTopic = c.topics.map((t) => {
    const m = new Map<number, number>();
    for (const i of t.members.slice(0, MAX_MEMBERS)) for (const id of c.model.vector(i).ids) if (names[id]!.startsWith('w:')) m.set(id, (m.get(id) ?? 0) + 1);
    return m;
  });
  const uses = new Map<number, number>();
  let total = 0;
  for (const m of perTopic) {
    for (const [id, k] of m) {
      uses.set(id, (uses.get(id) ?? 0) + k);
      total += k;
    }
  }
  const mean = total / Math.max(perTopic.length, 1);
  return perTopic.map((m, k) => {
    const size = Math.min(c.topics[k]!.members.length, MAX_MEMBERS);
    const top = [...m].map(([id, n]) => [id, (n / size) * Math.log(1 + mean / uses.get(id)!)] as const)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, DISTINCTIVE_TERMS).map(([id]) => names[id]!);
    return asWords(top, c.topics[k]!.members.slice(0, 16).map(text));
  });
}

/** Stems ('w:configur') as the first word a question of the topic used for each. */
export function asWords(stems: readonly string[], texts: readonly string[]): string[] {
  const surface = new Map<string, string>();
  for (const t of texts) for (const [k, w] of questionFeatures(t).surface) if (!surface.has(k)) surface.set(k, w);
  return stems.map((s) => surface.get(s) ?? s.slice(2));
}
