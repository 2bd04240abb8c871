// What the report's "Gap topics" section shows (sql/report/gap-topics.sql over gap_topics_top). A
// snapshot written before gap topics existed has no such view: the section then says so.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from '../../warehouse/sql-files.js';

export const GAP_TOPICS_LIMIT = 15;

export interface GapTopicRow {
  projectId: string; topicId: string; language: string; label: string; turns: number; conversations: number;
  turnsLast7d: number; turnsPrev7d: number; trend: number | null; examples: string[]; topPages: string[];
  citedSources: string[]; lastAskedAt: Date; periodFrom: Date; computedAt: Date;
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** The top topics, or null when the snapshot has no gap topics view (an older docs-etl wrote it). */
export async function readGapTopics(conn: DuckDBConnection, projectId: string | null): Promise<GapTopicRow[] | null> {
  const present = await conn.runAndReadAll("SELECT count(*) FROM duckdb_views() WHERE view_name = 'gap_topics_top'");
  if (Number(present.getRows()[0]![0]) === 0) return null;
  const rows = (await conn.runAndReadAll(sqlFile('report/gap-topics.sql'), { project: projectId, limit: GAP_TOPICS_LIMIT })).getRowObjectsJS();
  return rows.map((r) => ({
    projectId: String(r.project_id), topicId: String(r.topic_id), language: String(r.language), label: String(r.label),
    turns: Number(r.turns), conversations: Number(r.conversations), turnsLast7d: Number(r.turns_last_7d), turnsPrev7d: Number(r.turns_prev_7d),
    trend: r.trend === null ? null : Number(r.trend), examples: list(r.examples), topPages: list(r.top_pages), citedSources: list(r.cited_sources),
    lastAskedAt: r.last_asked_at as Date, periodFrom: r.period_from as Date, computedAt: r.computed_at as Date,
  }));
}
