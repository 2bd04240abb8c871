// The existing topics' representations (gap_topic_terms) in memory, for placing new questions
// (assign-new.ts): read once per placement by column (about 170,000 rows at 7,000 topics), terms
// interned as integers, each topic's terms and weights in typed arrays, and an inverted index of
// the word terms. It scores a question as sql/topics/nearest-topic.sql did (the DuckDB join it
// replaces, 2 s of the hourly step's 4.5 s of CPU): candidates are the topics of a language it may join
// (sameTopicLanguage's rule) sharing one of its candidate words, at most CANDIDATES by that partial score
// (ties: the smaller topic id), then the cosine over the topic's terms; the most similar wins when
// it reaches the threshold (ties: the smaller topic id, where the SQL's arg_max took either).
import type { DuckDBConnection } from '@duckdb/node-api';
import { UNDETERMINED } from './question-features.js';

/** Candidate topics scored in full per question. */
const CANDIDATES = 24;

/** A question's unit vector: its terms with their weights, and which of them find candidates. */
export interface QuestionVector {
  language: string;
  terms: readonly string[];
  weights: Float64Array;
  /** Indexes into terms of its candidate words. */
  cand: readonly number[];
}

export interface TopicIndex {
  /** Adds a topic (a new one of this placement) so later batches can join it. */
  add(topicId: string, language: string, terms: readonly { term: string; weight: number }[]): void;
  /** The most similar topic at or over `threshold`, or undefined. */
  nearest(q: QuestionVector, main: string, threshold: number): { topic: string; sim: number } | undefined;
  /** The index as arrays (kept between steps: topic-index-store.ts); topicIndexFromSnapshot gives it back. */
  snapshot(): TopicIndexSnapshot;
}

/**
 * Topics with their terms as ids into `terms`: topic k's are termIds[offsets[k]..offsets[k+1]) with
 * their weights, in the order of the terms' text as UTF-8 bytes (a cosine sums them in that order, so
 * a topic scores the same float bits whether its index was read from gap_topic_terms or from a snapshot).
 */
export interface TopicIndexSnapshot {
  terms: string[];
  ids: string[];
  languages: string[];
  offsets: Int32Array;
  termIds: Int32Array;
  weights: Float64Array;
}

/** The project's topic terms with dense ids: terms and topics are numbered in their sort order. */
const ROWS = `WITH t AS (SELECT topic_id, term, weight FROM gap_topic_terms WHERE project_id = $project),
  terms AS (SELECT term, (row_number() OVER (ORDER BY term) - 1)::INTEGER AS id FROM (SELECT DISTINCT term FROM t)),
  topics AS (SELECT topic_id, (row_number() OVER (ORDER BY topic_id) - 1)::INTEGER AS id FROM (SELECT DISTINCT topic_id FROM t))
SELECT topics.id AS topic, terms.id AS term, t.weight FROM t JOIN terms USING (term) JOIN topics USING (topic_id)`;

/** The index from gap_topic_terms (a step with no stored snapshot of the current terms: topic-index-store.ts). */
export async function loadTopicIndex(conn: DuckDBConnection, projectId: string): Promise<TopicIndex> {
  const project = { project: projectId };
  // By column, strings only once each (20,000 distinct terms, 7,000 topics) and the rows as
  // integers: reading the 170,000 rows' strings cost 0.7 s of CPU, an object per row seconds.
  const [terms] = (await conn.runAndReadAll('SELECT DISTINCT term FROM gap_topic_terms WHERE project_id = $project ORDER BY term', project)).getColumnsJS() as [string[]];
  // A topic's rows all have its language (topic-state.ts and assign-new.ts write them so).
  const [ids, languages] = (await conn.runAndReadAll(
    'SELECT topic_id, min(language) FROM gap_topic_terms WHERE project_id = $project GROUP BY topic_id ORDER BY topic_id', project)).getColumnsJS() as [string[], string[]];
  const [topicOf, termOf, weightOf] = (await conn.runAndReadAll(ROWS, project)).getColumnsJS() as [number[], number[], number[]];
  // Each topic's rows together (a counting sort by topic), then one topic at a time.
  const offsets = new Int32Array(ids.length + 1);
  for (const t of topicOf) offsets[t + 1]!++;
  for (let t = 0; t < ids.length; t++) offsets[t + 1]! += offsets[t]!;
  const fill = offsets.slice(0, ids.length);
  const termIds = new Int32Array(topicOf.length);
  const weights = new Float64Array(topicOf.length);
  topicOf.forEach((t, r) => {
    const at = fill[t]!++;
    termIds[at] = termOf[r]!;
    weights[at] = weightOf[r]!;
  });
  // Each topic's terms by id, which is their text's order here (the join's row order varies).
  for (let t = 0; t < ids.length; t++) sortTopicTerms(termIds.subarray(offsets[t]!, offsets[t + 1]!), weights.subarray(offsets[t]!, offsets[t + 1]!), (a, b) => a - b);
  return topicIndexFromSnapshot({ terms, ids, languages, offsets, termIds, weights });
}

export function topicIndexFromSnapshot(s: TopicIndexSnapshot): TopicIndex {
  return new MemoryTopicIndex(s);
}

/** Sorts a topic's terms (and their weights alike) by `cmp` on the term ids: an insertion sort, at most 24 a topic. */
function sortTopicTerms(tids: Int32Array, weights: Float64Array, cmp: (a: number, b: number) => number): void {
  for (let i = 1; i < tids.length; i++) {
    const term = tids[i]!;
    const weight = weights[i]!;
    let j = i - 1;
    for (; j >= 0 && cmp(tids[j]!, term) > 0; j--) {
      tids[j + 1] = tids[j]!;
      weights[j + 1] = weights[j]!;
    }
    tids[j + 1] = term;
    weights[j + 1] = weight;
  }
}

/** Postings as one array (compressed rows): term id k's topics and weights are [start[k], start[k + 1]). */
interface Postings {
  start: Int32Array;
  topics: Int32Array;
  weights: Float64Array;
}

/**
 * The snapshot's topics stay in its typed arrays and their word postings are built as typed arrays
 * in two passes: no object or growing array per term or topic (the launcher's 1 MB young generation
 * made the garbage collector most of the load). Topics added during the placement are kept apart.
 */
class MemoryTopicIndex implements TopicIndex {
  private readonly termIds = new Map<string, number>();
  /** Term id → its text. */
  private readonly names: string[] = [];
  /** Term id → a word term ('w:'), the only ones that find candidates. */
  private readonly words: boolean[] = [];
  private readonly ids: string[];
  /** Each topic's language as a code (langCodes). */
  private readonly langs: number[] = [];
  private readonly langCodes = new Map<string, number>();
  /** The snapshot's topics: 0 … base.ids.length - 1. */
  private readonly base: TopicIndexSnapshot;
  private readonly basePostings: Postings;
  /** Topics added since, in order after the base's. */
  private readonly added: { terms: Int32Array; weights: Float64Array }[] = [];
  private readonly addedPostings = new Map<number, { topics: number[]; weights: number[] }>();
  private partial = new Float64Array(0);
  private seen = new Uint8Array(0);
  private scores = new Float64Array(0);
  private qWeight = new Float64Array(0);

  constructor(s: TopicIndexSnapshot) {
    s.terms.forEach((t) => this.intern(t));
    this.base = s;
    this.ids = s.ids.slice();
    for (const l of s.languages) this.langs.push(this.language(l));
    this.basePostings = this.postingsOf(s);
  }

  private postingsOf(s: TopicIndexSnapshot): Postings {
    const start = new Int32Array(s.terms.length + 1);
    for (const id of s.termIds) if (this.words[id]) start[id + 1]!++;
    for (let k = 0; k < s.terms.length; k++) start[k + 1]! += start[k]!;
    const fill = start.slice(0, s.terms.length);
    const topics = new Int32Array(start[s.terms.length]!);
    const weights = new Float64Array(topics.length);
    for (let t = 0; t < s.ids.length; t++) {
      for (let r = s.offsets[t]!; r < s.offsets[t + 1]!; r++) {
        const id = s.termIds[r]!;
        if (!this.words[id]) continue;
        const at = fill[id]!++;
        topics[at] = t;
        weights[at] = s.weights[r]!;
      }
    }
    return { start, topics, weights };
  }

  add(topicId: string, language: string, terms: readonly { term: string; weight: number }[]): void {
    const tids = Int32Array.from(terms, (t) => this.intern(t.term));
    const weights = Float64Array.from(terms, (t) => t.weight);
    // By the terms' UTF-8 bytes: DuckDB's ORDER BY term, which numbered the rows' terms (loadTopicIndex).
    // Each term encoded once, not at every comparison.
    const bytes = new Map(Array.from(tids, (id) => [id, Buffer.from(this.names[id]!)]));
    sortTopicTerms(tids, weights, (a, b) => Buffer.compare(bytes.get(a)!, bytes.get(b)!));
    const topic = this.ids.length;
    this.ids.push(topicId);
    this.langs.push(this.language(language));
    this.added.push({ terms: tids, weights });
    tids.forEach((id, k) => {
      if (!this.words[id]) return;
      let p = this.addedPostings.get(id);
      if (!p) this.addedPostings.set(id, (p = { topics: [], weights: [] }));
      p.topics.push(topic);
      p.weights.push(weights[k]!);
    });
  }

  snapshot(): TopicIndexSnapshot {
    const n = this.base.ids.length;
    const offsets = new Int32Array(this.ids.length + 1);
    offsets.set(this.base.offsets);
    this.added.forEach((t, k) => { offsets[n + k + 1] = offsets[n + k]! + t.terms.length; });
    const termIds = new Int32Array(offsets[this.ids.length]!);
    const weights = new Float64Array(termIds.length);
    termIds.set(this.base.termIds);
    weights.set(this.base.weights);
    this.added.forEach((t, k) => {
      termIds.set(t.terms, offsets[n + k]!);
      weights.set(t.weights, offsets[n + k]!);
    });
    const codes = [...this.langCodes.keys()];
    return { terms: [...this.names], ids: [...this.ids], languages: this.langs.map((c) => codes[c]!), offsets, termIds, weights };
  }

  /** The cosine of the question's weights (qWeight, by term id) and the topic's terms, summed in their order. */
  private similarity(topic: number): number {
    const n = this.base.ids.length;
    let sim = 0;
    if (topic < n) {
      const { offsets, termIds, weights } = this.base;
      for (let k = offsets[topic]!; k < offsets[topic + 1]!; k++) sim += this.qWeight[termIds[k]!]! * weights[k]!;
    } else {
      const { terms, weights } = this.added[topic - n]!;
      for (let k = 0; k < terms.length; k++) sim += this.qWeight[terms[k]!]! * weights[k]!;
    }
    return sim;
  }

  nearest(q: QuestionVector, main: string, threshold: number): { topic: string; sim: number } | undefined {
    const cands = this.candidates(q, main);
    if (cands.length === 0) return undefined;
    const qids = q.terms.map((t) => this.termIds.get(t));
    if (this.qWeight.length < this.termIds.size) this.qWeight = new Float64Array(this.termIds.size * 2);
    qids.forEach((id, k) => { if (id !== undefined) this.qWeight[id] = q.weights[k]!; });
    let best = -1;
    let bestSim = -Infinity;
    for (const topic of cands) {
      const sim = this.similarity(topic);
      if (sim > bestSim || (sim === bestSim && this.ids[topic]! < this.ids[best]!)) {
        best = topic;
        bestSim = sim;
      }
    }
    qids.forEach((id) => { if (id !== undefined) this.qWeight[id] = 0; });
    return bestSim >= threshold ? { topic: this.ids[best]!, sim: bestSim } : undefined;
  }

  /** The topics sharing a candidate word of `q` in a language it may join: the CANDIDATES best by partial score. */
  private candidates(q: QuestionVector, main: string): number[] {
    if (this.partial.length < this.ids.length) {
      this.partial = new Float64Array(this.ids.length * 2);
      this.seen = new Uint8Array(this.ids.length * 2);
    }
    // sameTopicLanguage on codes: the same language, or an undetermined one and the main language.
    const ql = this.language(q.language);
    const mc = this.language(main);
    const und = this.language(UNDETERMINED);
    const touched: number[] = [];
    const take = (topic: number, w: number) => {
      const tl = this.langs[topic]!;
      if (tl !== ql && !(ql === und && tl === mc) && !(tl === und && ql === mc)) return;
      if (!this.seen[topic]) {
        this.seen[topic] = 1;
        touched.push(topic);
      }
      this.partial[topic]! += w;
    };
    const { start, topics, weights } = this.basePostings;
    for (const k of q.cand) {
      const id = this.termIds.get(q.terms[k]!);
      if (id === undefined) continue;
      const w = q.weights[k]!;
      for (let j = start[id] ?? 0; j < (start[id + 1] ?? 0); j++) take(topics[j]!, w * weights[j]!);
      const p = this.addedPostings.get(id);
      if (p) for (let j = 0; j < p.topics.length; j++) take(p.topics[j]!, w * p.weights[j]!);
    }
    const out = this.best(touched);
    for (const t of touched) {
      this.partial[t] = 0;
      this.seen[t] = 0;
    }
    return out;
  }

  /** The CANDIDATES touched topics of highest partial score, ties by the smaller topic id (in no order). */
  private best(touched: number[]): number[] {
    if (touched.length <= CANDIDATES) return touched;
    // An undetermined question's common words reach thousands of the main language's topics: sort
    // their scores as numbers in a reused buffer, not the topics by a comparator.
    if (this.scores.length < touched.length) this.scores = new Float64Array(touched.length * 2);
    for (let i = 0; i < touched.length; i++) this.scores[i] = this.partial[touched[i]!]!;
    const sorted = this.scores.subarray(0, touched.length).sort();
    const cut = sorted[touched.length - CANDIDATES]!;
    const out = touched.filter((t) => this.partial[t]! > cut);
    const ties = touched.filter((t) => this.partial[t] === cut).sort((a, b) => (this.ids[a]! < this.ids[b]! ? -1 : 1));
    return out.concat(ties.slice(0, CANDIDATES - out.length));
  }

  private language(name: string): number {
    let code = this.langCodes.get(name);
    if (code === undefined) {
      code = this.langCodes.size;
      this.langCodes.set(name, code);
    }
    return code;
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termIds.size;
      this.termIds.set(term, id);
      this.names.push(term);
      this.words.push(term.startsWith('w:'));
    }
    return id;
  }
}
