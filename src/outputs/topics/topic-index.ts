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
  topics(): number;
}

/** The project's topic terms with dense ids: terms and topics are numbered in their sort order. */
const ROWS = `WITH t AS (SELECT topic_id, term, weight FROM gap_topic_terms WHERE project_id = $project),
  terms AS (SELECT term, (row_number() OVER (ORDER BY term) - 1)::INTEGER AS id FROM (SELECT DISTINCT term FROM t)),
  topics AS (SELECT topic_id, (row_number() OVER (ORDER BY topic_id) - 1)::INTEGER AS id FROM (SELECT DISTINCT topic_id FROM t))
SELECT topics.id AS topic, terms.id AS term, t.weight FROM t JOIN terms USING (term) JOIN topics USING (topic_id)`;

export async function loadTopicIndex(conn: DuckDBConnection, projectId: string): Promise<TopicIndex> {
  const project = { project: projectId };
  // By column, strings only once each (20,000 distinct terms, 7,000 topics) and the rows as
  // integers: reading the 170,000 rows' strings cost 0.7 s of CPU, an object per row seconds.
  const [terms] = (await conn.runAndReadAll('SELECT DISTINCT term FROM gap_topic_terms WHERE project_id = $project ORDER BY term', project)).getColumnsJS() as [string[]];
  // A topic's rows all have its language (topic-state.ts and assign-new.ts write them so).
  const [ids, langs] = (await conn.runAndReadAll(
    'SELECT topic_id, min(language) FROM gap_topic_terms WHERE project_id = $project GROUP BY topic_id ORDER BY topic_id', project)).getColumnsJS() as [string[], string[]];
  const [topicOf, termOf, weightOf] = (await conn.runAndReadAll(ROWS, project)).getColumnsJS() as [number[], number[], number[]];
  // Each topic's rows together (a counting sort by topic), then one topic at a time.
  const start = new Int32Array(ids.length + 1);
  for (const t of topicOf) start[t + 1]!++;
  for (let t = 0; t < ids.length; t++) start[t + 1]! += start[t]!;
  const fill = start.slice(0, ids.length);
  const rowTerms = new Int32Array(topicOf.length);
  const rowWeights = new Float64Array(topicOf.length);
  topicOf.forEach((t, r) => {
    const at = fill[t]!++;
    rowTerms[at] = termOf[r]!;
    rowWeights[at] = weightOf[r]!;
  });
  // Each topic's terms by id (the join's row order varies), so a cosine sums its terms in the
  // same order every run: the same float bits. At most 24 a topic: an insertion sort.
  for (let t = 0; t < ids.length; t++) {
    for (let i = start[t]! + 1; i < start[t + 1]!; i++) {
      const term = rowTerms[i]!;
      const weight = rowWeights[i]!;
      let j = i - 1;
      for (; j >= start[t]! && rowTerms[j]! > term; j--) {
        rowTerms[j + 1] = rowTerms[j]!;
        rowWeights[j + 1] = rowWeights[j]!;
      }
      rowTerms[j + 1] = term;
      rowWeights[j + 1] = weight;
    }
  }
  const index = new MemoryTopicIndex(terms);
  for (let t = 0; t < ids.length; t++) index.addTopic(ids[t]!, langs[t]!, rowTerms.subarray(start[t]!, start[t + 1]!), rowWeights.subarray(start[t]!, start[t + 1]!));
  return index;
}

class MemoryTopicIndex implements TopicIndex {
  private readonly termIds = new Map<string, number>();
  /** Term id → a word term ('w:'), the only ones that find candidates. */
  private readonly words: boolean[] = [];
  private readonly ids: string[] = [];
  /** Each topic's language as a code (langCodes). */
  private readonly langs: number[] = [];
  private readonly langCodes = new Map<string, number>();
  private readonly topicTerms: Int32Array[] = [];
  private readonly topicWeights: Float64Array[] = [];
  /** Word term id → topics using it and its weight there (undefined: not a word or no topic). */
  private readonly postings: { topics: number[]; weights: number[] }[] = [];
  private partial = new Float64Array(0);
  private seen = new Uint8Array(0);
  private scores = new Float64Array(0);
  private qWeight = new Float64Array(0);

  topics(): number {
    return this.ids.length;
  }

  constructor(terms: readonly string[]) {
    terms.forEach((t) => this.intern(t));
  }

  add(topicId: string, language: string, terms: readonly { term: string; weight: number }[]): void {
    this.addTopic(topicId, language, Int32Array.from(terms, (t) => this.intern(t.term)), Float64Array.from(terms, (t) => t.weight));
  }

  /** A topic by its interned terms (ids from intern or the constructor's order) and weights. */
  addTopic(topicId: string, language: string, tids: Int32Array, weights: Float64Array): void {
    const topic = this.ids.length;
    this.ids.push(topicId);
    this.langs.push(this.language(language));
    this.topicTerms.push(tids);
    this.topicWeights.push(weights);
    tids.forEach((id, k) => {
      if (!this.words[id]) return;
      const p = (this.postings[id] ??= { topics: [], weights: [] });
      p.topics.push(topic);
      p.weights.push(weights[k]!);
    });
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
      const tids = this.topicTerms[topic]!;
      const tw = this.topicWeights[topic]!;
      let sim = 0;
      for (let k = 0; k < tids.length; k++) sim += this.qWeight[tids[k]!]! * tw[k]!;
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
    for (const k of q.cand) {
      const id = this.termIds.get(q.terms[k]!);
      const p = id === undefined ? undefined : this.postings[id];
      if (!p) continue;
      const w = q.weights[k]!;
      for (let j = 0; j < p.topics.length; j++) {
        const topic = p.topics[j]!;
        const tl = this.langs[topic]!;
        if (tl !== ql && !(ql === und && tl === mc) && !(tl === und && ql === mc)) continue;
        if (!this.seen[topic]) {
          this.seen[topic] = 1;
          touched.push(topic);
        }
        this.partial[topic]! += w * p.weights[j]!;
      }
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
      this.words.push(term.startsWith('w:'));
    }
    return id;
  }
}
