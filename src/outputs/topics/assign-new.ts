// The hourly path of the topic step (docs/topics.md, issue 37 item 5): only the period's new
// questions are placed, each in the existing topic whose stored representation (gap_topic_terms) is
// most similar when it reaches the join threshold; the others are grouped among themselves
// (cluster-questions.ts over the batch) into new topics. The work is done in batches of BATCH
// questions read from DuckDB, at most `cap` a run (the rest wait for the next run: their turns stay
// no topic's member until then). The candidate search is in JS over the topics' representations as
// integers (topic-index.ts: about 14 MB at 7,000 topics), kept between steps (topic-index-store.ts);
// the JS side holds one batch of questions, never the period's questions.
import { createHash } from 'node:crypto';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { sqlFile } from '../../warehouse/sql-files.js';
import { clusterQuestions, DEFAULT_CLUSTER_OPTIONS, idfOf, tfIdf, type ClusterOptions } from './cluster-questions.js';
import { questionFeatures, type QuestionFeatures } from './question-features.js';
import { asWords, describe, DISTINCTIVE_TERMS } from './topic-representation.js';
import { createTempTable } from './temp-tables.js';
import type { TopicIndex } from './topic-index.js';
import { loadPlacementModel, savePlacementModel, type DocumentFrequencies } from './topic-index-store.js';
import type { StepPhases } from './step-phases.js';

const BATCH = 2000;
/** A question's heaviest terms where its candidate topics are looked up. */
const CANDIDATE_TERMS = 8;
/** A word used by more than this share of a language's questions finds no candidates (too common). */
const COMMON_SHARE = 0.01;

export interface PlaceResult {
  questions: number;
  joined: number;
  newTopics: number;
}

interface NewQuestion {
  question: string;
  qhash: string;
  n: number;
  example: string;
}

interface Vec {
  language: string;
  terms: string[];
  weights: Float64Array;
  /** Per term: used by more than COMMON_SHARE of the language's questions (no candidate search). */
  common: boolean[];
}

type Run = (sql: string, params?: Record<string, DuckDBValue>) => Promise<Record<string, unknown>[]>;

/**
 * Places the questions of `gap_newq` (sql/topics/new-questions.sql), batch by batch. Writes
 * gap_topic_questions and gap_topic_terms, and the temp tables new_topics and new_q that
 * refresh-topics.sql reads. `phases` times each part of the batches (and samples memory).
 */
export async function placeNewQuestions(
  conn: DuckDBConnection, projectId: string, now: Date, total: number, opts: ClusterOptions = DEFAULT_CLUSTER_OPTIONS, phases?: StepPhases,
): Promise<PlaceResult> {
  const run: Run = async (sql, params = {}) => (await conn.runAndReadAll(sql, params)).getRowObjectsJS() as Record<string, unknown>[];
  await createTempTable(conn, 'new_topics');
  await createTempTable(conn, 'new_q');
  const out: PlaceResult = { questions: 0, joined: 0, newTopics: 0 };
  if (total === 0) return out;
  const main = String((await run(sqlFile('topics/main-language.sql'), { project: projectId }))[0]!.main);
  phases?.mark('place: main language');
  // The topics' representations and the IDF, once per placement; each batch's new topics are added
  // to the index, which is kept for the next step after the last batch's writes.
  const model = await loadPlacementModel(conn, projectId);
  const { index, dfs } = model;
  phases?.mark(`place: topic index and df (${model.source === 'snapshot' ? 'gap_topic_index' : 'from gap_topic_terms, gap_topic_df'})`);
  for (let offset = 0; offset < total; offset += BATCH) {
    const rows = (await run('SELECT question, qhash, n, example FROM gap_newq WHERE k > $a AND k <= $b ORDER BY k', { a: offset, b: offset + BATCH }))
      .map((r): NewQuestion => ({ question: String(r.question), qhash: String(r.qhash), n: Number(r.n), example: String(r.example) }));
    phases?.mark('place: read batch');
    const feats = rows.map((r) => questionFeatures(r.question));
    phases?.mark('place: question features (JS)');
    const vecs = vectors(dfs, feats);
    phases?.mark('place: TF-IDF vectors');
    const nearest = nearestTopics(index, { threshold: opts.threshold, main }, vecs);
    phases?.mark('place: nearest topic (topic-index.ts)');
    const placed: { qhash: string; topic: string; language: string; sim: number | null }[] = [];
    const newQ: { topic: string; r: NewQuestion }[] = [];
    rows.forEach((r, i) => {
      const hit = nearest.get(i);
      if (!hit) return;
      placed.push({ qhash: r.qhash, topic: hit.topic, language: vecs[i]!.language, sim: hit.sim });
      newQ.push({ topic: hit.topic, r });
    });
    out.joined += placed.length;
    // The rest are grouped among themselves: each group is a new topic.
    const rest = rows.map((_, i) => i).filter((i) => !nearest.has(i));
    // Their features as computed above (a batch's questions are distinct texts), not again.
    const featureOf = new Map(rest.map((i) => [rows[i]!.question, feats[i]!]));
    const groups = clusterQuestions(rest.map((i) => ({ text: rows[i]!.question, count: rows[i]!.n })), opts, undefined, (t) => featureOf.get(t) ?? questionFeatures(t));
    const topics: { id: string; language: string; label: string; medoid: string; distinctive: string[]; terms: { term: string; weight: number }[] }[] = [];
    for (const g of groups.topics) {
      const members = g.members.map((m) => rest[m]!);
      const d = describe(members, (i) => vecs[i]!);
      const leader = rows[members[0]!]!;
      const id = `t_${createHash('sha256').update(`${g.language}\u0000${leader.example.toLowerCase()}\u0000${leader.qhash}`).digest('hex').slice(0, 12)}`;
      const words = d.terms.filter((t) => t.term.startsWith('w:')).slice(0, DISTINCTIVE_TERMS).map((t) => t.term);
      index.add(id, g.language, d.terms);
      topics.push({ id, language: g.language, label: leader.example, medoid: rows[d.medoid]!.example, distinctive: asWords(words, members.slice(0, 16).map((i) => rows[i]!.question)), terms: d.terms });
      for (const i of members) {
        placed.push({ qhash: rows[i]!.qhash, topic: id, language: vecs[i]!.language, sim: null });
        newQ.push({ topic: id, r: rows[i]! });
      }
    }
    out.newTopics += topics.length;
    out.questions += rows.length;
    phases?.mark('place: group the rest (new topics)');
    await save(conn, projectId, now, placed, topics, newQ);
    phases?.mark('place: save batch');
  }
  await savePlacementModel(conn, projectId, now, model);
  phases?.mark('place: keep topic index (gap_topic_index)');
  return out;
}

/** Unit TF-IDF vectors of a batch, with the document frequencies of the last full re-clustering. */
function vectors(dfs: DocumentFrequencies, feats: readonly QuestionFeatures[]): Vec[] {
  const none = new Map<string, number>();
  return feats.map((f) => {
    const df = dfs.get(f.language) ?? none;
    const n = df.get('') ?? 1;
    const terms: string[] = [];
    const weights = new Float64Array(f.terms.size);
    const common: boolean[] = [];
    for (const [t, tf] of f.terms) {
      const d = df.get(t);
      weights[terms.length] = tfIdf(tf, idfOf(n, d ?? 1, t));
      common.push((d ?? 0) > COMMON_SHARE * n);
      terms.push(t);
    }
    const norm = Math.sqrt(weights.reduce((a, w) => a + w * w, 0)) || 1;
    for (let k = 0; k < weights.length; k++) weights[k]! /= norm;
    return { language: f.language, terms, weights, common };
  });
}

/** The nearest topic of each question of the batch (index → topic, cosine) at or over the threshold. */
function nearestTopics(index: TopicIndex, params: { threshold: number; main: string }, vecs: readonly Vec[]): Map<number, { topic: string; sim: number }> {
  const out = new Map<number, { topic: string; sim: number }>();
  vecs.forEach((v, i) => {
    // Candidates by words only (trigrams are shared by too many topics): a typo still shares the others.
    const words = v.terms.map((_, k) => k).filter((k) => !v.common[k] && v.terms[k]!.startsWith('w:'));
    const cand = words.sort((a, b) => v.weights[b]! - v.weights[a]! || (v.terms[a]! < v.terms[b]! ? -1 : 1)).slice(0, CANDIDATE_TERMS);
    const hit = index.nearest({ language: v.language, terms: v.terms, weights: v.weights, cand }, params.main, params.threshold);
    if (hit) out.set(i, hit);
  });
  return out;
}

/** The batch's placements, new topics' representations and rows for refresh-topics.sql. */
async function save(
  conn: DuckDBConnection, projectId: string, now: Date,
  placed: readonly { qhash: string; topic: string; language: string; sim: number | null }[],
  topics: readonly { id: string; language: string; label: string; medoid: string; distinctive: string[]; terms: { term: string; weight: number }[] }[],
  newQ: readonly { topic: string; r: NewQuestion }[],
): Promise<void> {
  await createTempTable(conn, 'batch_placed');
  const p = await conn.createAppender('batch_placed');
  for (const x of placed) {
    p.appendVarchar(x.qhash);
    p.appendVarchar(x.topic);
    p.appendVarchar(x.language);
    if (x.sim === null) p.appendNull();
    else p.appendDouble(x.sim);
    p.endRow();
  }
  p.closeSync();
  await conn.run(`INSERT INTO gap_topic_questions SELECT $project, CAST(qhash AS UBIGINT), topic_id, language, similarity, $now FROM batch_placed`,
    { project: projectId, now: now.toISOString() });
  const terms = await conn.createAppender('gap_topic_terms');
  for (const t of topics) {
    for (const x of t.terms) {
      terms.appendVarchar(projectId);
      terms.appendVarchar(t.id);
      terms.appendVarchar(t.language);
      terms.appendVarchar(x.term);
      terms.appendDouble(x.weight);
      terms.endRow();
    }
  }
  terms.closeSync();
  await createTempTable(conn, 'batch_topics');
  const nt = await conn.createAppender('batch_topics');
  for (const t of topics) {
    nt.appendVarchar(t.id);
    nt.appendVarchar(t.language);
    nt.appendVarchar(t.label);
    nt.appendVarchar(t.medoid);
    nt.appendVarchar(t.distinctive.join('\u001f'));
    nt.endRow();
  }
  nt.closeSync();
  await conn.run(`INSERT INTO new_topics SELECT topic_id, language, label, medoid, CASE WHEN distinctive = '' THEN [] ELSE string_split(distinctive, chr(31)) END FROM batch_topics`);
  const nq = await conn.createAppender('new_q');
  for (const x of newQ) {
    nq.appendVarchar(x.topic);
    nq.appendVarchar(x.r.question);
    nq.appendBigInt(BigInt(x.r.n));
    nq.appendVarchar(x.r.example);
    nq.endRow();
  }
  nq.closeSync();
}
