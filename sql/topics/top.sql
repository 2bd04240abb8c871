-- `docs-etl topics`: the top gap topics, per project (or one project), from gap_topics_top.
SELECT project_id, rank, topic_id, language, label, turns, conversations, questions,
       turns_last_7d, turns_prev_7d, trend, last_asked_at, examples, top_pages, cited_sources
FROM gap_topics_top
WHERE $project IS NULL OR project_id = $project
ORDER BY project_id, rank
LIMIT $limit;
