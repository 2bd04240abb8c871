-- The hourly topic step's placement model between runs (src/outputs/topics/topic-index-store.ts):
-- the topic index (gap_topic_terms as ids and weights) and the document frequencies (gap_topic_df)
-- in one snapshot, with the content key of the rows it was built from. A step uses it only while
-- that key is the rows' key now, so a snapshot can be stale (a step killed after its writes, a
-- full re-clustering) but is never used stale. Writer-only: not published.
CREATE TABLE gap_topic_index (
  project_id VARCHAR     NOT NULL,
  source_key VARCHAR     NOT NULL,
  snapshot   BLOB        NOT NULL,
  written_at TIMESTAMPTZ NOT NULL
);
