-- `docs-etl topics`: the top gap topics, per project (or one project), from gap_topics_top. `medoid`
-- (the most representative question; the label on rows of an older step) and `distinctive_terms`
-- name the topic for a writer: added last, so every earlier column keeps its place and meaning
-- (`label`: the most asked wording, as asked).
SELECT project_id, rank, topic_id, language, label, turns, conversations, questions,
       turns_last_7d, turns_prev_7d, trend, last_asked_at, examples, top_pages, cited_sources,
       coalesce(nullif(medoid, ''), label) AS medoid, coalesce(distinctive_terms, []) AS distinctive_terms
FROM gap_topics_top
WHERE $project IS NULL OR project_id = $project
ORDER BY project_id, rank
LIMIT $limit;
