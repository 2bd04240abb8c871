// After a full re-clustering, what the hourly steps place new questions with (docs/topics.md):
// every question's topic (gap_topic_questions), each topic's representation (gap_topic_terms) and
// the document frequencies the vectors were weighed with (gap_topic_df), replacing the project's.
// Reads the temp tables topic_keys (qhash → cluster) and topic_ids (cluster → id, language).
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';
import type { Clustering } from './cluster-questions.js';
import type { TopicDescription } from './topic-representation.js';
import { createTempTable, dropTempTables } from './temp-tables.js';

export async function saveTopicState(
  conn: DuckDBConnection, projectId: string, now: Date, clustering: Clustering, descriptions: readonly TopicDescription[],
): Promise<void> {
  const project = { project: projectId };
  for (const t of ['gap_topic_questions', 'gap_topic_terms', 'gap_topic_df']) await conn.run(`DELETE FROM ${quotedIdentifier(t)} WHERE project_id = $project`, project);
  await conn.run(`INSERT INTO gap_topic_questions
    SELECT $project, k.qhash, t.topic_id, t.language, NULL, $now FROM topic_keys k JOIN topic_ids t USING (cluster)`, { ...project, now: now.toISOString() });
  await createTempTable(conn, 'topic_terms');
  const terms = await conn.createAppender('topic_terms');
  descriptions.forEach((d, k) => {
    for (const x of d.terms) {
      terms.appendInteger(k);
      terms.appendVarchar(x.term);
      terms.appendDouble(x.weight);
      terms.endRow();
    }
  });
  terms.closeSync();
  await conn.run(`INSERT INTO gap_topic_terms SELECT $project, t.topic_id, t.language, x.term, x.weight FROM topic_terms x JOIN topic_ids t USING (cluster)`, project);
  await dropTempTables(conn, ['topic_terms']);
  const df = await conn.createAppender('gap_topic_df');
  const row = (language: string, term: string, n: number) => {
    df.appendVarchar(projectId);
    df.appendVarchar(language);
    df.appendVarchar(term);
    df.appendInteger(n);
    df.endRow();
  };
  for (const [language, g] of clustering.model.dfByLang) {
    row(language, '', g.n);
    for (const [id, n] of g.df) row(language, clustering.model.names[id]!, n);
  }
  df.closeSync();
}
