// Warehouse tables that are the writer's own working state, not data for readers: they are not in
// the read surface (no Parquet file, no view in the catalog). Nothing that reads the snapshot
// (status, metrics, report, query, the lake) uses them, and no reader page documents them; before,
// every publish signed them (a scan of every row) and rewrote each one the writer changed, e.g.
// the gap topic step's per-question state, which grows with the topic period.
//   - gap_topic_questions, gap_topic_terms, gap_topic_df, gap_topic_index: the incremental topic step's state
//     (docs/topics.md); readers get gap_topics, gap_topic_members and gap_topic_runs;
//   - alert_state: which alert conditions hold, so separate processes alert once (docs/operations.md).
// The `copy` surface copies the whole warehouse file and keeps them. A table documented for
// readers (docs/tables.md, docs/readers.md) never goes on this list: its name is an interface.
export const WRITER_ONLY_TABLES: ReadonlySet<string> = new Set(['gap_topic_questions', 'gap_topic_terms', 'gap_topic_df', 'gap_topic_index', 'alert_state']);

/** The tables of `columns` that the read surface publishes. */
export function readableTables<T>(columns: ReadonlyMap<string, T>): Map<string, T> {
  return new Map([...columns].filter(([table]) => !WRITER_ONLY_TABLES.has(table)));
}
