-- The report's "Gap topics": the biggest topics of the project(s) (gap_topics_top), as computed by
-- the last topic step (their own period, topicPeriod).
SELECT project_id, topic_id, language, label, turns, conversations, turns_last_7d, turns_prev_7d, trend,
       examples, top_pages, cited_sources, last_asked_at, period_from, computed_at
FROM gap_topics_top
WHERE $project IS NULL OR project_id = $project
ORDER BY turns DESC, conversations DESC, project_id, topic_id
LIMIT $limit;
