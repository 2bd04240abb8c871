-- Document frequencies (of the last full re-clustering) of one batch's terms; term '' per language
-- gives its number of questions.
SELECT b.language, b.term, d.df
FROM batch_terms b JOIN gap_topic_df d ON d.project_id = $project AND d.language = b.language AND d.term = b.term;
