-- The lake columns of gap_topics, in order (docs/lake.md).
SELECT project_id, topic_id, language, label, questions, turns, conversations, first_asked_at,
       last_asked_at, turns_last_7d, turns_prev_7d, trend, examples, top_pages, cited_sources,
       period_from, computed_at
FROM gap_topics
