// Second pass of the clustering: topics the first pass split are one topic again. The first pass
// compares a question with topic centroids that include character trigrams, so two phrasings of
// one subject that share a single distinctive word ("SSO with Okta", "Okta single sign-on") start
// two topics. Here a topic is described by its word profile: for each word stem, the share of its
// questions that use it, times the word's IDF. Two profiles alike (cosine ≥ threshold, same
// language) are one topic: a word that every question of both topics uses counts fully, the
// template words ("configure", "error") that a few use count little.
//
// Biggest topics first; each topic joins the kept topic most similar to it, found through an
// inverted index over the profiles' heaviest words (linear in the topics, never all pairs).
import { sameTopicLanguage, UNDETERMINED } from './question-features.js';

export interface TopicProfiles {
  /**
   * Per topic: feature id → weight, and its language. The word-profile pass: share of members
   * using the word × IDF; the centroid pass (cluster-questions.ts): the centroid's terms.
   */
  profiles: Map<number, number>[];
  languages: string[];
  sizes: number[];
  /** Per topic, the profile's euclidean norm when the caller keeps it (else computed here). */
  norms?: number[];
  /** The project's main language: the only one an undetermined topic merges with (sameTopicLanguage). */
  main: string;
}

/** How far the search for a similar kept topic goes: its heaviest features, candidates compared. */
export interface MergeLimits {
  topFeatures: number;
  maxCandidates: number;
  /**
   * Distinctive terms agree (issue 37 item 3): the features both topics have must carry at least
   * this share of EACH topic's profile weight, so one shared product word ("webhook" in "webhook
   * retries" and "webhook signature") does not merge two subjects. 0: cosine only.
   */
  agreement?: number;
}

const WORD_LIMITS: MergeLimits = { topFeatures: 6, maxCandidates: 32, agreement: 0.1 };
const MAX_POSTING = 256;

/**
 * Per topic, the kept topic it belongs to (an index into the returned `kept`). A kept topic of
 * undetermined language takes the language of the first known-language topic that joins it
 * (`p.languages` is updated in place).
 */
export function mergeProfiles(p: TopicProfiles, threshold: number, limits: MergeLimits = WORD_LIMITS): { into: Int32Array; kept: number[] } {
  const n = p.profiles.length;
  const order = Array.from({ length: n }, (_, t) => t).sort((a, b) => p.sizes[b]! - p.sizes[a]! || a - b);
  const norms = p.norms ?? p.profiles.map((m) => Math.sqrt([...m.values()].reduce((a, w) => a + w * w, 0)) || 1);
  const heaviest = (m: Map<number, number>) => [...m].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limits.topFeatures).map(([id]) => id);
  const into = new Int32Array(n).fill(-1);
  const kept: number[] = [];
  const postings = new Map<number, number[]>();
  for (const t of order) {
    const prof = p.profiles[t]!;
    const seen = new Set<number>();
    let best = -1;
    let bestSim = threshold;
    for (const id of heaviest(prof)) {
      for (const k of postings.get(id) ?? []) {
        if (seen.has(k) || seen.size >= limits.maxCandidates) continue;
        seen.add(k);
        const kl = p.languages[k]!;
        const tl = p.languages[t]!;
        if (!sameTopicLanguage(kl, tl, p.main)) continue;
        const other = p.profiles[k]!;
        let dot = 0;
        for (const [f, w] of prof) dot += (other.get(f) ?? 0) * w;
        const sim = dot / (norms[t]! * norms[k]!);
        if (sim > bestSim && !agree(prof, other, limits.agreement ?? 0)) continue;
        if (sim > bestSim || (sim === bestSim && k < best)) [best, bestSim] = [k, sim];
      }
    }
    if (best < 0) {
      into[t] = kept.length;
      kept.push(t);
      for (const id of heaviest(prof)) {
        let list = postings.get(id);
        if (!list) postings.set(id, (list = []));
        if (list.length < MAX_POSTING) list.push(t);
      }
      continue;
    }
    into[t] = into[best]!;
    if (p.languages[best] === UNDETERMINED) p.languages[best] = p.languages[t]!;
  }
  return { into, kept };
}

/** Whether the features `a` and `b` share carry at least `share` of each one's weight (squared: as the norm counts it). */
function agree(a: Map<number, number>, b: Map<number, number>, share: number): boolean {
  if (share <= 0) return true;
  let sharedA = 0;
  let sharedB = 0;
  let totalA = 0;
  let totalB = 0;
  for (const [f, w] of a) {
    totalA += w * w;
    const o = b.get(f);
    if (o !== undefined) [sharedA, sharedB] = [sharedA + w * w, sharedB + o * o];
  }
  for (const w of b.values()) totalB += w * w;
  return sharedA >= share * totalA && sharedB >= share * totalB;
}

/** A clustering with its topics merged as `mergeProfiles` decided: biggest member lists first. */
export function applyMerge<T extends { members: number[]; language: string }>(
  topicOf: Int32Array, topics: readonly T[], merge: { into: Int32Array; kept: number[] }, languages: readonly string[],
): { topicOf: Int32Array; topics: { members: number[]; language: string }[] } {
  const { into, kept } = merge;
  const order = topics.map((_, t) => t).sort((a, b) => topics[b]!.members.length - topics[a]!.members.length || a - b);
  const merged = kept.map((t) => ({ members: [] as number[], language: languages[t]! }));
  for (const t of order) merged[into[t]!]!.members.push(...topics[t]!.members);
  const out = new Int32Array(topicOf.length);
  for (let i = 0; i < out.length; i++) out[i] = into[topicOf[i]!]!;
  return { topicOf: out, topics: merged };
}
