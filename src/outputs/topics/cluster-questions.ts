// Groups distinct questions into topics by lexical similarity, deterministically and without
// comparing all pairs (design: docs/topics.md).
//   1. Features (question-features.ts), weighted TF-IDF over the distinct questions: a word that
//      many questions use ("configure", "error") counts little, a rare one ("okta") much; the
//      character trigrams of the stems count CHAR_WEIGHT as much as the words (typos).
//   2. Questions in a fixed order (most asked first, then by text) each join the most similar
//      topic so far, by cosine with the topic's centroid, when it reaches `threshold`; otherwise
//      they start a topic. Candidates come from an inverted index (feature → topics) over each
//      question's TOP_FEATURES heaviest features, at most MAX_CANDIDATES of them scored: the cost
//      is linear in the questions, never quadratic.
//   3. Topics whose centroids are alike merge (mergeTopics); then topics whose word profiles are
//      alike merge (merge-topics.ts): two phrasings sharing one distinctive word that every
//      question of both uses ("SSO with Okta", "Okta SAML login") are one topic.
//   4. A topic whose members are not mutually similar (mean pairwise cosine under `cohesion`) is
//      split by average linkage (split-topics.ts): no catch-all topic, one-off questions alone.
//   5. A topic's language is the first known language among its members; a question of another
//      known language never joins it; undetermined questions ("okta sso") join only undetermined
//      topics or those of the project's main language (sameTopicLanguage).
// Memory: every question's features in two flat typed arrays, centroids cut to CENTROID_TERMS terms.
import { applyMerge, mergeProfiles } from './merge-topics.js';
import { questionFeatures, sameTopicLanguage, UNDETERMINED } from './question-features.js';
import { splitByCohesion } from './split-topics.js';

export interface Question {
  text: string;
  /** Times asked (turns): more asked questions are placed first and lead their topic. */
  count: number;
  /**
   * The topic the question belonged to in the previous step (any number naming it), if any:
   * questions of one previous topic start together in one topic again (incremental runs).
   */
  previous?: number;
}

export interface ClusterOptions {
  /** Cosine to a topic's centroid needed to join it. */
  threshold: number;
  /** Cosine between two topics' centroids needed to merge them (second pass). */
  mergeThreshold: number;
  /** Cosine between two topics' word profiles needed to merge them (third pass, merge-topics.ts). */
  profileThreshold: number;
  /** Mean pairwise cosine a topic's members need (average linkage within a topic, split-topics.ts). */
  cohesion: number;
}

/**
 * Measured on 20 seeded samples of the sandbox's labelled questions (test/topics/cluster-quality):
 * pairwise precision min 0.93, recall min 0.87 (the first pass at 0.2 without the word-profile
 * merge: recall 0.68 on some samples, the synonyms of one subject split). `cohesion` (and the merge's
 * term agreement, merge-topics.ts) chosen on the labelled tuning set test/fixtures/topics-quality/
 * payments.jsonl only, within what keeps the sandbox's samples at recall ≥ 0.8 (figures: docs/topics.md).
 */
export const DEFAULT_CLUSTER_OPTIONS: ClusterOptions = { threshold: 0.3, mergeThreshold: 0.3, profileThreshold: 0.2, cohesion: 0.2 };

const CHAR_WEIGHT = 0.35;
const TOP_FEATURES = 8;
const MAX_CANDIDATES = 24;
const MAX_POSTING = 256;
const CENTROID_TERMS = 96;

export interface Clustering {
  /** Topic index of each question (same order as the input). */
  topicOf: Int32Array;
  /** Per topic: its question indexes (first = the leader, the most asked) and its language. */
  topics: { members: number[]; language: string }[];
  /** The features the questions were compared by (topic-representation.ts reads them). */
  model: FeatureModel;
}

/** The questions' features: term names, languages, per-language document frequencies. */
export interface FeatureModel {
  /** Feature id → 'w:stem' | 'c:abc'. */
  names: string[];
  langs: string[];
  dfByLang: Map<string, { n: number; df: Map<number, number> }>;
  /** Question i's unit TF-IDF vector. */
  vector: (i: number) => Vector;
}

/** A feature's IDF in a language: log(1 + questions / df), character trigrams CHAR_WEIGHT of that. */
export function idfOf(n: number, df: number, term: string): number {
  return Math.log(1 + n / Math.max(df, 1)) * (term.startsWith('c:') ? CHAR_WEIGHT : 1);
}

/** A term's weight before normalization: (1 + log tf) × IDF. */
export function tfIdf(tf: number, idf: number): number {
  return (1 + Math.log(tf)) * idf;
}

export interface Vector {
  ids: Int32Array;
  weights: Float64Array;
}

/** `onProgress` is called every 4096 questions of each pass (the caller samples its memory). */
export function clusterQuestions(questions: readonly Question[], opts: ClusterOptions = DEFAULT_CLUSTER_OPTIONS, onProgress?: () => void): Clustering {
  const n = questions.length;
  const featureIds = new Map<string, number>();
  const isChar: boolean[] = [];
  const names: string[] = [];
  // Document frequencies per language: the words every question of a language uses ("funktioniert",
  // "configurer") count little in that language even when the others never use them.
  const dfByLang = new Map<string, { n: number; df: Map<number, number> }>();
  const langs: string[] = new Array<string>(n);
  // Every question's features in two flat arrays (question i: offsets[i] to offsets[i + 1]): no
  // object per question, about 6 bytes per feature.
  const offsets = new Uint32Array(n + 1);
  let featIds = new Int32Array(1 << 16);
  let featTf = new Uint16Array(1 << 16);
  let used = 0;
  for (let i = 0; i < n; i++) {
    if ((i & 4095) === 4095) onProgress?.();
    const f = questionFeatures(questions[i]!.text);
    langs[i] = f.language;
    let group = dfByLang.get(f.language);
    if (!group) dfByLang.set(f.language, (group = { n: 0, df: new Map() }));
    group.n++;
    if (used + f.terms.size > featIds.length) {
      const size = Math.max(2 * featIds.length, used + f.terms.size);
      const ids = new Int32Array(size);
      ids.set(featIds.subarray(0, used));
      const tf = new Uint16Array(size);
      tf.set(featTf.subarray(0, used));
      [featIds, featTf] = [ids, tf];
    }
    for (const [term, c] of f.terms) {
      let id = featureIds.get(term);
      if (id === undefined) {
        id = isChar.length;
        featureIds.set(term, id);
        isChar.push(term.startsWith('c:'));
        names.push(term);
      }
      group.df.set(id, (group.df.get(id) ?? 0) + 1);
      featIds[used] = id;
      featTf[used++] = Math.min(c, 65_535);
    }
    offsets[i + 1] = used;
  }
  featIds = featIds.slice(0, used);
  featTf = featTf.slice(0, used);
  const raw = (i: number) => ({ ids: featIds.subarray(offsets[i]!, offsets[i + 1]!), tf: featTf.subarray(offsets[i]!, offsets[i + 1]!) });
  featureIds.clear();
  const idf = (lang: string, id: number) => {
    const g = dfByLang.get(lang)!;
    return idfOf(g.n, g.df.get(id)!, names[id]!);
  };

  const vector = (i: number): Vector => {
    const { ids, tf } = raw(i);
    const weights = new Float64Array(ids.length);
    let norm = 0;
    for (let k = 0; k < ids.length; k++) {
      weights[k] = tfIdf(tf[k]!, idf(langs[i]!, ids[k]!));
      norm += weights[k]! * weights[k]!;
    }
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < weights.length; k++) weights[k]! /= norm;
    return { ids, weights };
  };

  // Questions of a previous topic first, by topic (they start as that topic again); then those of a
  // known language (most asked first, then by text), the undetermined after them, when the topics
  // they may join have taken shape.
  const prev = (i: number) => questions[i]!.previous ?? -1;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    Number(prev(a) < 0) - Number(prev(b) < 0) || prev(a) - prev(b)
    || Number(langs[a] === UNDETERMINED) - Number(langs[b] === UNDETERMINED) || questions[b]!.count - questions[a]!.count
    || (questions[a]!.text < questions[b]!.text ? -1 : questions[a]!.text > questions[b]!.text ? 1 : 0));
  const dominant = [...dfByLang].filter(([l]) => l !== UNDETERMINED).sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? UNDETERMINED;
  const topicOf = new Int32Array(n).fill(-1);
  const topics: Clustering['topics'] = [];
  const centroids: Centroid[] = [];
  const postings = new Map<number, number[]>();
  const index = (t: number, ids: Iterable<number>) => {
    for (const id of ids) {
      let list = postings.get(id);
      if (!list) postings.set(id, (list = []));
      if (list.length < MAX_POSTING && !list.includes(t)) list.push(t);
    }
  };

  /** Previous topic → its topic in this step. */
  const resumed = new Map<number, number>();
  let done = 0;
  for (const i of order) {
    if ((++done & 4095) === 0) onProgress?.();
    const v = vector(i);
    const lang = langs[i]!;
    const again = resumed.get(prev(i));
    if (again !== undefined && sameTopicLanguage(topics[again]!.language, lang, dominant)) {
      const c = centroids[again]!;
      let dot = 0;
      for (let j = 0; j < v.ids.length; j++) dot += (c.terms.get(v.ids[j]!) ?? 0) * v.weights[j]!;
      topics[again]!.members.push(i);
      if (topics[again]!.language === UNDETERMINED) topics[again]!.language = lang;
      topicOf[i] = again;
      addToCentroid(c, v.ids, v.weights, dot);
      index(again, heaviest(v));
      continue;
    }
    // The question's heaviest features: where its candidate topics are looked up.
    const top = heaviest(v);
    const seen = new Set<number>();
    // An undetermined question ("okta sso") joins a topic of the most used language when one is
    // similar enough, else an undetermined one (never a third language's: sameTopicLanguage).
    let best = -1;
    let bestSim = opts.threshold;
    let bestDot = 0;
    let home = -1;
    let homeDot = 0;
    let homeSim = opts.threshold;
    for (const id of top) {
      for (const t of postings.get(id) ?? []) {
        if (seen.has(t) || seen.size >= MAX_CANDIDATES) continue;
        seen.add(t);
        const tl = topics[t]!.language;
        if (!sameTopicLanguage(tl, lang, dominant)) continue;
        const c = centroids[t]!;
        let dot = 0;
        for (let j = 0; j < v.ids.length; j++) dot += (c.terms.get(v.ids[j]!) ?? 0) * v.weights[j]!;
        const sim = dot / Math.sqrt(c.norm2);
        if (sim > bestSim || (sim === bestSim && t < best)) [best, bestSim, bestDot] = [t, sim, dot];
        if (tl === dominant && (sim > homeSim || (sim === homeSim && t < home))) [home, homeSim, homeDot] = [t, sim, dot];
      }
    }
    if (lang === UNDETERMINED && home >= 0) [best, bestDot] = [home, homeDot];
    if (prev(i) >= 0) [best, bestDot] = [-1, 0];
    if (best < 0) {
      if (prev(i) >= 0) resumed.set(prev(i), topics.length);
      best = topics.length;
      topics.push({ members: [], language: lang });
      centroids.push({ terms: new Map(), norm2: 0 });
    }
    const topic = topics[best]!;
    topic.members.push(i);
    if (topic.language === UNDETERMINED) topic.language = lang;
    topicOf[i] = best;
    addToCentroid(centroids[best]!, v.ids, v.weights, bestDot);
    index(best, top);
  }
  const first = mergeTopics(topicOf, topics, centroids, opts.mergeThreshold, dominant);
  const merged = mergeByWords(first, raw, langs, isChar, idf, opts.profileThreshold, dominant);
  // Cohesion is measured over words only: character trigrams make unrelated questions alike
  // ("account", "accountant", "accounts"), the words a subject's questions share do not.
  const wordVector = (i: number): Vector => {
    const v = vector(i);
    const keep = Array.from(v.ids.keys()).filter((k) => !isChar[v.ids[k]!]);
    const weights = Float64Array.from(keep, (k) => v.weights[k]!);
    const norm = Math.sqrt(weights.reduce((a, w) => a + w * w, 0)) || 1;
    return { ids: Int32Array.from(keep, (k) => v.ids[k]!), weights: weights.map((w) => w / norm) };
  };
  return { ...splitTopics(merged, wordVector, opts.cohesion), model: { names, langs, dfByLang, vector } };
}

/** The word-profile merge (merge-topics.ts) over a clustering. */
function mergeByWords(c: Omit<Clustering, 'model'>, raw: (i: number) => { ids: Int32Array }, langs: string[], isChar: boolean[], idf: (lang: string, id: number) => number, threshold: number, main: string): Omit<Clustering, 'model'> {
  const profiles = c.topics.map((t) => {
    const m = new Map<number, number>();
    for (const i of t.members) for (const id of raw(i).ids) if (!isChar[id]) m.set(id, (m.get(id) ?? 0) + 1);
    // Only the words at least half its questions use: a topic's subject, not its phrasings.
    for (const [id, k] of m) {
      if (k * 2 < t.members.length) m.delete(id);
      else m.set(id, (k / t.members.length) * idf(langs[t.members[0]!]!, id));
    }
    return m;
  });
  const languages = c.topics.map((t) => t.language);
  const merge = mergeProfiles({ profiles, languages, sizes: c.topics.map((t) => t.members.length), main }, threshold);
  return applyMerge(c.topicOf, c.topics, merge, languages);
}

/** Every topic split into its mutually similar parts (split-topics.ts); a part keeps its topic's language. */
function splitTopics(c: Omit<Clustering, 'model'>, vector: (i: number) => Vector, cohesion: number): Omit<Clustering, 'model'> {
  const topics: Clustering['topics'] = [];
  const topicOf = new Int32Array(c.topicOf.length);
  for (const t of c.topics) {
    for (const part of splitByCohesion(t.members, vector, cohesion)) {
      for (const i of part) topicOf[i] = topics.length;
      topics.push({ members: part, language: t.language });
    }
  }
  return { topicOf, topics };
}

/** The ids of a vector's TOP_FEATURES heaviest features (ties by id). */
function heaviest(v: Vector): number[] {
  return Array.from(v.weights.keys()).sort((a, b) => v.weights[b]! - v.weights[a]! || v.ids[a]! - v.ids[b]!).slice(0, TOP_FEATURES).map((k) => v.ids[k]!);
}

interface Centroid {
  terms: Map<number, number>;
  norm2: number;
}

/**
 * Second pass: topics whose centroids are alike (cosine ≥ mergeThreshold, same language) are one
 * topic that the first pass split (its first questions differed). Biggest topics first; each
 * topic joins the most similar topic kept before it, found through its centroid's heaviest terms
 * (the same search as the word-profile pass, over centroids). A kept topic's centroid stays as
 * it is: its index entries keep describing it.
 */
function mergeTopics(topicOf: Int32Array, topics: Clustering['topics'], centroids: Centroid[], threshold: number, main: string): Omit<Clustering, 'model'> {
  const languages = topics.map((t) => t.language);
  const merge = mergeProfiles({
    profiles: centroids.map((c) => c.terms),
    norms: centroids.map((c) => Math.sqrt(c.norm2)),
    languages,
    sizes: topics.map((t) => t.members.length),
    main,
  }, threshold, { topFeatures: TOP_FEATURES, maxCandidates: MAX_CANDIDATES });
  return applyMerge(topicOf, topics, merge, languages);
}

/**
 * centroid += v (a unit vector; `dot` = centroid · v before), cut to its CENTROID_TERMS heaviest
 * terms when it grows past twice that. |c + v|² = |c|² + 2 c·v + 1 until a cut recomputes it.
 */
function addToCentroid(c: Centroid, ids: Int32Array, weights: Float64Array, dot: number): void {
  for (let k = 0; k < ids.length; k++) c.terms.set(ids[k]!, (c.terms.get(ids[k]!) ?? 0) + weights[k]!);
  c.norm2 += 2 * dot + 1;
  if (c.terms.size > 2 * CENTROID_TERMS) {
    c.terms = new Map([...c.terms].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, CENTROID_TERMS));
    let norm2 = 0;
    for (const w of c.terms.values()) norm2 += w * w;
    c.norm2 = norm2;
  }
}
