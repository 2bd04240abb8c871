// The topic step (docs/topics.md): after a sync's merge, before the read snapshot is published,
// and on `docs-etl topics --rebuild`, each project's unanswered questions of the period are grouped
// into gap topics (cluster-questions.ts) and gap_topics / gap_topic_members are replaced.
//   - Incremental: a question starts in the topic it had in the previous step (new questions join
//     or start topics); a rebuild starts from nothing.
//   - Unchanged input (the period's unanswered turns, their last change, the day and the settings:
//     the fingerprint) skips the step; `--rebuild` always computes.
//   - Bounded cost: at most `maxQuestions` distinct questions (the most asked) are grouped, the
//     rest are counted as skipped; the heavy per-turn work (normalizing, joining, counting) is
//     DuckDB's, the JS side holds the distinct questions only. Time and peak RSS are recorded in
//     gap_topic_runs and logged.
//   - Stable ids: a new topic takes the id of the previous topic it shares most turns with when
//     their Jaccard index (turns in both / turns in either) is at least MATCH_JACCARD, each old
//     id used once (best matches first); otherwise a new id hashed from its language and label.
import { createHash } from 'node:crypto';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import { inTransaction } from '../../warehouse/warehouse.js';
import { withScanMemory } from '../../warehouse/scan-memory.js';
import { retryAtWholeLimit } from '../../warehouse/memory-pool.js';
import { messageOf } from '../../core/errors.js';
import { clusterQuestions, DEFAULT_CLUSTER_OPTIONS, type Question } from './cluster-questions.js';
import { placeNewTurns, runScript, type StatementRunner } from './incremental-step.js';
import { readHeldQuestions } from './held-questions.js';
import { describeTopics, distinctiveTerms } from './topic-representation.js';
import { saveTopicState } from './topic-state.js';
import type { TopicSettings } from './topic-settings.js';
import { createTempTable, dropTempTables, FULL_STEP_TABLES } from './temp-tables.js';
import { StepPhases, type StepPhase } from './step-phases.js';

export const MATCH_JACCARD = 0.5;
/**
 * Distinct questions a full re-clustering holds in memory (the most asked); the rest of the period's
 * questions (up to maxQuestions) are placed after it in batches, as an hourly step places its new
 * ones: the step's memory does not grow with the period.
 */
export const FULL_CLUSTER_CAP = 30_000;
/** New distinct questions an hourly step places at most (the rest wait for the next run). */
export const HOURLY_CAP = 20_000;
/** Questions placed since the last full re-clustering beyond this share of its questions: drift, re-cluster. */
export const DRIFT_SHARE = 0.5;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

export interface TopicStepResult {
  projectId: string;
  status: 'computed' | 'unchanged';
  /** full: the period re-clustered (at most daily, on drift, on --rebuild); incremental: new questions placed. */
  mode: 'full' | 'incremental' | 'unchanged';
  turns: number;
  questions: number;
  questionsSkipped: number;
  topics: number;
  topicsKeptId: number;
  durationMs: number;
  peakRssBytes: number;
  /** Where the step's time and memory went, phase by phase (step-phases.ts). */
  phases: StepPhase[];
}

export interface TopicStepDeps {
  clock: Clock;
  logger: Logger;
}

/** A sql/topics file with the parameters it names (DuckDB refuses others). */
function statement(file: string, params: Record<string, DuckDBValue>): [string, Record<string, DuckDBValue>] {
  const sql = sqlFile(`topics/${file}.sql`);
  return [sql, Object.fromEntries(Object.entries(params).filter(([k]) => new RegExp(`\\$${k}\\b`).test(sql)))];
}


async function all(conn: DuckDBConnection, file: string, params: Record<string, DuckDBValue>): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(...statement(file, params))).getRowObjectsJS() as Record<string, unknown>[];
}

/** The period: from the start of the UTC day `periodMs` before now, to now. */
export function topicPeriod(now: Date, periodMs: number): { from: Date; to: Date } {
  return { from: new Date(Math.floor((now.getTime() - periodMs) / DAY_MS) * DAY_MS), to: now };
}

/**
 * One project's topic step on the writer's connection. Incremental: questions start in the topic
 * they had in the previous step, new ones join or start topics. `force` (rebuild): compute even
 * when nothing changed, from nothing (ids still follow the previous topics by Jaccard).
 */
export async function runTopicStep(
  deps: TopicStepDeps, conn: DuckDBConnection, projectId: string, settings: TopicSettings, force = false,
): Promise<TopicStepResult> {
  const started = performance.now();
  let peak = process.memoryUsage.rss();
  const phases = new StepPhases();
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
    phases.sample();
  };
  const now = deps.clock.now();
  const { from, to } = topicPeriod(now, settings.periodMs);
  const p = { project: projectId, from: from.toISOString(), to: to.toISOString() };
  // The fingerprint reads the period's turns and keeps a few values: under the small pool of
  // bookkeeping scans, so a step that finds nothing changed does not grow with the history.
  const fp = (await withScanMemory(conn, () => all(conn, 'fingerprint', p)))[0]!;
  phases.mark('fingerprint');
  const fingerprint = createHash('sha256').update(JSON.stringify([
    Number(fp.period_turns), fp.changed_at ?? null, from.toISOString(), now.toISOString().slice(0, 10), settings.maxQuestions, DEFAULT_CLUSTER_OPTIONS,
  ])).digest('hex').slice(0, 16);
  // `turns`: the period's unanswered turns; an unchanged step has the same as the step it matches.
  const base = { projectId, turns: Number(fp.last_turns ?? 0), questions: 0, questionsSkipped: 0, topics: 0, topicsKeptId: 0, mode: 'unchanged' as const };
  const record = async (r: Omit<TopicStepResult, 'durationMs' | 'peakRssBytes' | 'phases'>): Promise<TopicStepResult> => {
    sample();
    const out = { ...r, durationMs: performance.now() - started, peakRssBytes: peak, phases: phases.phases };
    await conn.run(...statement('insert-run', {
      project: projectId, now: now.toISOString(), from: from.toISOString(), fingerprint, status: out.status, turns: out.turns,
      questions: out.questions, skipped: out.questionsSkipped, topics: out.topics, kept: out.topicsKeptId, ms: out.durationMs, rss: out.peakRssBytes, mode: out.mode,
    }));
    return out;
  };
  if (!force && fp.last_fingerprint === fingerprint) return record({ ...base, status: 'unchanged' });
  const weekParams = {
    ...p, now: now.toISOString(), week: new Date(now.getTime() - WEEK_MS).toISOString(), prev_week: new Date(now.getTime() - 2 * WEEK_MS).toISOString(),
  };
  const topicCount = async () => Number((await all(conn, 'topic-count', { project: projectId }))[0]!.topics);

  // Large inserts and aggregates in less memory: the step's row order does not matter (reset after).
  await conn.run('SET preserve_insertion_order = false');
  try {
    const lastFull = force ? undefined : await hourlySince(conn, projectId, now);
    if (lastFull !== undefined) {
      // One transaction (an hour's changes are small): a step that fails or is killed leaves the
      // previous topics as they were and its turns no member, placed again next run.
      const r = await placeNewTurns(conn, weekParams, now, Math.min(settings.maxQuestions, HOURLY_CAP), { since: lastFull }, phases);
      const turns = Number((await all(conn, 'member-count', { project: projectId }))[0]!.turns);
      phases.mark('member count');
      const topics = await topicCount();
      phases.mark('topic count');
      return await record({ ...base, status: 'computed', mode: 'incremental', turns, questions: r.questions, questionsSkipped: r.questionsSkipped, topics });
    }
    // A statement of the full step that needs more than the step pool runs again alone at the whole
    // limit (memory-pool.ts), logged once each: not the whole step again.
    const each: StatementRunner = (name, run) => retryAtWholeLimit(conn, run, (err) => deps.logger.info(
      { projectId, statement: name, err: messageOf(err).split('\n')[0] }, 'gap topics: a statement ran out of the step pool; it runs again at the whole memory limit'));
    await conn.run(...statement('gap-turns', p));
    const counts = (await all(conn, 'question-count', {}))[0]!;
    phases.mark('full: gap turns, question count');
    // The in-memory part in its own function: its questions and clustering are garbage before the tail.
    const held = await clusterHeld(conn, { projectId, p, weekParams, now, force, cap: Math.min(settings.maxQuestions, FULL_CLUSTER_CAP), each }, phases, sample);
    // The in-memory part's tables are done with: freed before the tail (which reads conversations).
    await dropTempTables(conn, FULL_STEP_TABLES);
    // The questions over the in-memory cap: placed in batches, as an hourly step places its new ones.
    const tail = await placeNewTurns(conn, weekParams, now, Math.max(0, settings.maxQuestions - held.questions), false, phases, each);
    const topics = await topicCount();
    phases.mark('topic count');
    return await record({
      ...base, status: 'computed', mode: 'full', turns: Number(counts.turns), questions: held.questions + tail.questions,
      questionsSkipped: Number(counts.questions) - held.questions - tail.questions, topics, topicsKeptId: held.kept,
    });
  } finally {
    await dropTempTables(conn, FULL_STEP_TABLES);
    await conn.run('RESET preserve_insertion_order');
  }
}

interface HeldStep {
  projectId: string;
  p: Record<string, string>;
  weekParams: Record<string, string>;
  now: Date;
  force: boolean;
  /** Distinct questions held in memory (the most asked). */
  cap: number;
  /** Runs the write transaction (again at the whole limit when it runs out of the step pool). */
  each: StatementRunner;
}

/**
 * The in-memory part of a full re-clustering: the `cap` most asked questions clustered, the
 * project's topics and members replaced by them in one transaction. Returns how many it held and
 * how many topics kept their id.
 */
async function clusterHeld(conn: DuckDBConnection, s: HeldStep, phases: StepPhases, sample: () => void): Promise<{ questions: number; kept: number }> {
  const { projectId, p, weekParams, now, force, cap, each } = s;
  // Read as columns, not one object per question: up to maxQuestions of them (gap_turns narrowed to theirs).
  const cols = await readHeldQuestions(conn, p, cap, each);
  phases.mark('full: read questions');
  // Incremental: questions start in their previous topic (a rebuild starts from nothing).
  const previous = new Map<string, number>();
  if (!force) {
    const numbers = new Map<string, number>();
    for (const r of await all(conn, 'previous', { project: projectId })) {
      const id = String(r.topic_id);
      if (!numbers.has(id)) numbers.set(id, numbers.size);
      previous.set(String(r.qhash), numbers.get(id)!);
    }
  }
  const questions: (Question & { example: string })[] = (cols.question ?? []).map((q, i) => ({
    text: String(q), count: Number(cols.n![i]), example: String(cols.example![i]), previous: previous.get(String(cols.qhash![i])),
  }));
  const clustering = clusterQuestions(questions, DEFAULT_CLUSTER_OPTIONS, sample);
  phases.mark('full: cluster in memory');
  const descriptions = describeTopics(clustering);
  const distinctive = distinctiveTerms(clustering, (i) => questions[i]!.text);
  phases.mark('full: describe topics');

  await createTempTable(conn, 'topic_assign');
  const assign = await conn.createAppender('topic_assign');
  questions.forEach((q, i) => {
    assign.appendVarchar(q.text);
    assign.appendInteger(clustering.topicOf[i]!);
    assign.appendBigInt(BigInt(q.count));
    assign.appendVarchar(q.example);
    assign.endRow();
  });
  assign.closeSync();
  await conn.run(sqlFile('topics/assign-keys.sql'));
  phases.mark('full: assign keys (assign-keys.sql)');

  // A topic's label: its most asked question (ties: the first by text), as first asked.
  const labels = clustering.topics.map((t) => questions[t.members.reduce((a, b) => (isBefore(questions[b]!, questions[a]!) ? b : a))]!.example);
  const ids = stableIds(clustering.topics.map((t, k) => ({ language: t.language, label: labels[k]! })),
    (await all(conn, 'overlap', { project: projectId })).map((r) => ({
      cluster: Number(r.cluster), topicId: String(r.topic_id), overlap: Number(r.overlap), clusterSize: Number(r.cluster_size), topicSize: Number(r.topic_size),
    })));
  await createTempTable(conn, 'topic_ids');
  const idApp = await conn.createAppender('topic_ids');
  clustering.topics.forEach((t, k) => {
    idApp.appendInteger(k);
    idApp.appendVarchar(ids.ids[k]!);
    idApp.appendVarchar(t.language);
    idApp.appendVarchar(labels[k]!);
    idApp.appendInteger(t.members.length);
    idApp.appendVarchar(distinctive[k]!.join('\u001f'));
    idApp.appendVarchar(questions[descriptions[k]!.medoid]!.example);
    idApp.endRow();
  });
  idApp.closeSync();
  phases.mark('full: stable ids (overlap.sql)');

  // One transaction (rolled back whole on an error, so it can run again).
  await each('write topics', () => inTransaction(conn, async () => {
    await conn.run('DELETE FROM gap_topic_members WHERE project_id = $project', { project: projectId });
    await conn.run('DELETE FROM gap_topics WHERE project_id = $project', { project: projectId });
    await conn.run(...statement('write-members', { project: projectId }));
    phases.mark('full: write members (write-members.sql)');
    for (const file of ['write-topics', 'top-pages', 'insert-topics']) await runScript(conn, file, weekParams, phases);
    await saveTopicState(conn, projectId, now, clustering, descriptions);
  }));
  phases.mark('full: write topics (one transaction)');
  return { questions: questions.length, kept: ids.kept };
}

/**
 * The last full re-clustering's time when an hourly step is due, else undefined (a full re-clustering
 * is): none was made yet (or the topics' state is empty), the last was made on another UTC day, or
 * the questions placed since exceed DRIFT_SHARE of its questions.
 */
async function hourlySince(conn: DuckDBConnection, projectId: string, now: Date): Promise<string | undefined> {
  const m = (await all(conn, 'step-mode', { project: projectId }))[0];
  if (!m || m.last_full_at == null || Number(m.known_questions) === 0) return undefined;
  if (String(m.last_full_day) !== now.toISOString().slice(0, 10)) return undefined;
  if (Number(m.placed_since) > Math.max(1000, DRIFT_SHARE * Number(m.last_full_questions))) return undefined;
  return String(m.last_full_at);
}

/** The order of examples in write-topics.sql: most asked, then by normalized text. */
function isBefore(a: Question, b: Question): boolean {
  return a.count > b.count || (a.count === b.count && a.text < b.text);
}

export interface Overlap {
  cluster: number;
  topicId: string;
  overlap: number;
  clusterSize: number;
  topicSize: number;
}

/**
 * Ids of the new clusters: the previous topic's id for the best matches by Jaccard (≥ MATCH_JACCARD,
 * each old id once; ties by cluster, then id), else `t_` + a hash of language and label (made
 * unique with a counter in the rare case of a clash).
 */
export function stableIds(clusters: readonly { language: string; label: string }[], overlaps: readonly Overlap[]): { ids: string[]; kept: number } {
  const scored = overlaps
    .map((o) => ({ ...o, jaccard: o.overlap / (o.clusterSize + o.topicSize - o.overlap) }))
    .filter((o) => o.jaccard >= MATCH_JACCARD)
    .sort((a, b) => b.jaccard - a.jaccard || a.cluster - b.cluster || (a.topicId < b.topicId ? -1 : 1));
  const ids: (string | null)[] = clusters.map(() => null);
  const used = new Set<string>();
  let kept = 0;
  for (const o of scored) {
    if (ids[o.cluster] !== null || used.has(o.topicId)) continue;
    ids[o.cluster] = o.topicId;
    used.add(o.topicId);
    kept++;
  }
  const out = clusters.map((c, k): string => {
    const matched = ids[k];
    if (matched) return matched;
    const hash = createHash('sha256').update(`${c.language}\u0000${c.label.toLowerCase()}`).digest('hex');
    let id = `t_${hash.slice(0, 12)}`;
    for (let n = 2; used.has(id); n++) id = `t_${hash.slice(0, 12)}_${n}`;
    used.add(id);
    return id;
  });
  return { ids: out, kept };
}
