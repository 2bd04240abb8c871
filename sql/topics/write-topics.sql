-- A topic's row from its members: counts, first and last asked, the last 7 days against the 7
-- before ($week, $prev_week), examples, starting pages and the sources cited when it failed.
INSERT INTO gap_topics
WITH m AS (
  SELECT g.id, g.occurred_at, g.page_path, t.topic_id
  FROM gap_turns g JOIN topic_keys a USING (qhash) JOIN topic_ids t USING (cluster)
), pages AS (
  SELECT topic_id, list(page_path ORDER BY n DESC, page_path)[1:3] AS top_pages
  FROM (SELECT topic_id, page_path, count(*) AS n FROM m WHERE page_path IS NOT NULL GROUP BY ALL)
  GROUP BY topic_id
), cited AS (
  SELECT topic_id, list(url ORDER BY n DESC, url)[1:3] AS cited_sources
  FROM (
    SELECT m.topic_id, s.url, count(*) AS n
    FROM m JOIN sources s ON s.project_id = $project AND s.conversation_id = m.id AND s.occurred_at = m.occurred_at
    GROUP BY ALL
  )
  GROUP BY topic_id
), ex AS (
  SELECT t.topic_id, list(a.example ORDER BY a.n DESC, a.question)[1:3] AS examples
  FROM topic_assign a JOIN topic_ids t USING (cluster)
  GROUP BY t.topic_id
), convs AS (
  SELECT topic_id, count(*) AS conversations FROM (SELECT DISTINCT topic_id, id FROM m) GROUP BY topic_id
), agg AS (
  SELECT topic_id, count(*) AS turns,
         min(occurred_at) AS first_asked_at, max(occurred_at) AS last_asked_at,
         count(*) FILTER (WHERE occurred_at >= $week) AS turns_last_7d,
         count(*) FILTER (WHERE occurred_at >= $prev_week AND occurred_at < $week) AS turns_prev_7d
  FROM m GROUP BY topic_id
)
SELECT $project, t.topic_id, t.language, t.label, t.questions, agg.turns, convs.conversations,
       agg.first_asked_at, agg.last_asked_at, agg.turns_last_7d, agg.turns_prev_7d,
       CASE WHEN agg.turns_prev_7d = 0 THEN NULL ELSE round((agg.turns_last_7d - agg.turns_prev_7d) / agg.turns_prev_7d, 4) END,
       ex.examples, coalesce(pages.top_pages, []), coalesce(cited.cited_sources, []),
       $from, $now
FROM topic_ids t JOIN agg USING (topic_id) JOIN convs USING (topic_id) JOIN ex USING (topic_id)
LEFT JOIN pages USING (topic_id) LEFT JOIN cited USING (topic_id);
