-- The project's main language at the last full re-clustering: the known language of most questions.
SELECT coalesce((SELECT arg_max(language, df) FROM gap_topic_df WHERE project_id = $project AND term = '' AND language <> 'und'), 'und') AS main;
