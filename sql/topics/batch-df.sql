-- Document frequencies of the last full re-clustering, per language; term '' gives its number of
-- questions. Read once per placement (assign-new.ts), not per batch.
SELECT language, term, df FROM gap_topic_df WHERE project_id = $project;
