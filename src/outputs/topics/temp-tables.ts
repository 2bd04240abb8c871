// Every temporary table of the topic step, declared once (review of issue 37): the tables the JS
// side fills by appender with their columns, and those sql/topics files create (their columns are
// their query's). They are created and dropped from this declaration: a table left behind would
// hold the writer's pool (memory DuckDB cannot evict) for the rest of the run. A test checks that
// every TEMP TABLE named in sql/topics or src/outputs/topics is declared here.
import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quoting.js';

/** Tables the JS side creates: name → columns. */
const FILLED = {
  topic_assign: 'question VARCHAR, cluster INTEGER, n BIGINT, example VARCHAR',
  topic_ids: 'cluster INTEGER, topic_id VARCHAR, language VARCHAR, label VARCHAR, questions INTEGER, distinctive VARCHAR, medoid VARCHAR',
  topic_terms: 'cluster INTEGER, term VARCHAR, weight DOUBLE',
  new_topics: 'topic_id VARCHAR, language VARCHAR, label VARCHAR, medoid VARCHAR, distinctive_terms VARCHAR[]',
  new_q: 'topic_id VARCHAR, question VARCHAR, n BIGINT, example VARCHAR',
  batch_placed: 'qhash VARCHAR, topic_id VARCHAR, language VARCHAR, similarity DOUBLE',
  batch_topics: 'topic_id VARCHAR, language VARCHAR, label VARCHAR, medoid VARCHAR, distinctive VARCHAR',
} as const;

/** Tables sql/topics files create (CREATE OR REPLACE TEMP TABLE … AS a query). */
const QUERIED = ['topic_keys', 'gap_turns', 'gap_held', 'gap_hn', 'gap_hn_cut', 'gap_hn_pick', 'gap_m', 'gap_agg', 'gap_convs', 'gap_pages', 'gap_cited', 'gap_ex', 'gap_new', 'gap_newq', 'gap_qn', 'gap_qn_n', 'gap_qn_cut', 'gap_qn_pick'] as const;

export type FilledTable = keyof typeof FILLED;
export type TopicTempTable = FilledTable | (typeof QUERIED)[number];

/** Every temporary table of the topic step. */
export const TOPIC_TEMP_TABLES: readonly TopicTempTable[] = [...(Object.keys(FILLED) as FilledTable[]), ...QUERIED];

/** The full re-clustering's own tables, and the incremental placement's. */
export const FULL_STEP_TABLES: readonly TopicTempTable[] = ['topic_assign', 'topic_keys', 'topic_ids', 'gap_turns', 'gap_held', 'gap_hn', 'gap_hn_cut', 'gap_hn_pick', 'gap_m', 'gap_agg', 'gap_convs', 'gap_pages', 'gap_cited', 'gap_ex'];
export const PLACEMENT_TABLES: readonly TopicTempTable[] = ['gap_new', 'gap_newq', 'gap_qn_n', 'gap_qn_cut', 'gap_qn_pick', 'new_topics', 'new_q', 'batch_placed', 'batch_topics'];

/** (Re)creates one of the tables the JS side fills, empty, with its declared columns. */
export async function createTempTable(conn: DuckDBConnection, name: FilledTable): Promise<void> {
  await conn.run(`CREATE OR REPLACE TEMP TABLE ${quotedIdentifier(name)} (${FILLED[name]})`);
}

/** Drops the given temporary tables (all of them by default) when they exist. */
export async function dropTempTables(conn: DuckDBConnection, names: readonly TopicTempTable[] = TOPIC_TEMP_TABLES): Promise<void> {
  for (const t of names) await conn.run(`DROP TABLE IF EXISTS temp.main.${quotedIdentifier(t)}`);
}
