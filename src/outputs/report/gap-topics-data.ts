// What the report's "Gap topics" section shows (sql/report/gap-topics.sql): the topics of the last
// topic step, each counted over the report's period only (its members whose day, in the project's
// zone, falls in the period; topics with none left out). A snapshot written before gap topics existed
// has no such view: the section then says so.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from '../../warehouse/sql-files.js';
import type { ReportPeriod } from './period.js';

export const GAP_TOPICS_LIMIT = 15;

export interface GapTopicRow {
  projectId: string; topicId: string; language: string;
  /** gap_topics.label: the most asked wording, as asked (typos included). */
  label: string;
  /** gap_topics.medoid: the most representative question; null on rows of an older topic step. */
  medoid: string | null;
  distinctiveTerms: string[];
  /** Counted over the report's period. */
  questions: number; turns: number; conversations: number;
  /** The period's last 7 days and the 7 before; `prevWeekLoaded` false: no comparison. */
  turnsLast7d: number; turnsPrev7d: number; prevWeekLoaded: boolean;
  examples: string[]; topPages: string[]; citedSources: string[]; lastAskedAt: Date;
  /** The topic step's period start (instant and day in the project's zone) and when it ran. */
  periodFrom: Date; periodFromDay: string; computedAt: Date;
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** What a writer reads as the topic's name: the medoid, or the label on rows that have none. */
export const topicTitle = (r: Pick<GapTopicRow, 'label' | 'medoid'>): string => r.medoid ?? r.label;

/** The top topics of the period, or null when the snapshot has no gap topics view (an older docs-etl wrote it). */
export async function readGapTopics(conn: DuckDBConnection, projectId: string | null, period: ReportPeriod): Promise<GapTopicRow[] | null> {
  const present = await conn.runAndReadAll("SELECT count(*) FROM duckdb_views() WHERE view_name = 'gap_topics_top'");
  if (Number(present.getRows()[0]![0]) === 0) return null;
  const params = { project: projectId, from: period.from, to: period.to, limit: GAP_TOPICS_LIMIT };
  const rows = (await conn.runAndReadAll(sqlFile('report/gap-topics.sql'), params)).getRowObjectsJS();
  return rows.map((r) => ({
    projectId: String(r.project_id), topicId: String(r.topic_id), language: String(r.language), label: String(r.label),
    medoid: r.medoid === null || r.medoid === undefined || r.medoid === '' ? null : String(r.medoid), distinctiveTerms: list(r.distinctive_terms),
    questions: Number(r.questions), turns: Number(r.turns), conversations: Number(r.conversations),
    turnsLast7d: Number(r.turns_last_7d), turnsPrev7d: Number(r.turns_prev_7d), prevWeekLoaded: r.prev_week_loaded === true,
    examples: list(r.examples), topPages: list(r.top_pages), citedSources: list(r.cited_sources), lastAskedAt: r.last_asked_at as Date,
    periodFrom: r.period_from as Date, periodFromDay: String(r.period_from_day), computedAt: r.computed_at as Date,
  }));
}
