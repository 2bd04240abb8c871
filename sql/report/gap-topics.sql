-- The report's "Gap topics" over the report's period. The topics are those of the last topic step
-- (gap_topics_top: its language, label, medoid and distinctive terms); every figure is counted from
-- the topic's members (gap_topic_members) whose day in the project's zone (conversation_days) falls
-- in the report's period [$from, $to], so they add up with the report's other sections. A topic with
-- no unanswered turn in the period is left out. Trend: the period's last 7 days ($to included)
-- against the 7 before, with `prev_week_loaded` false when those 7 days are not all loaded
-- (coverage_days) or start before the topic period (then no comparison is shown, as the headline).
WITH bounds AS (
  SELECT CAST($from AS DATE) AS p_from, CAST($to AS DATE) AS p_to,
         CAST($to AS DATE) - 6 AS week_from, CAST($to AS DATE) - 13 AS prev_from
), members AS (
  -- Members are bounded by instant first (2 days of margin for any zone), then by day exactly.
  SELECT c.project_id, m.topic_id, c.id, c.occurred_at, c.day, c.query, c.page_path,
         question_text(c.query) AS question
  FROM gap_topic_members m
  JOIN conversation_days c ON c.project_id = m.project_id AND c.id = m.conversation_id AND c.occurred_at = m.occurred_at
  CROSS JOIN bounds b
  WHERE (CAST($project AS VARCHAR) IS NULL OR m.project_id = CAST($project AS VARCHAR))
    AND m.occurred_at >= CAST(least(b.p_from, b.prev_from) - 2 AS TIMESTAMPTZ)
    AND c.day BETWEEN least(b.p_from, b.prev_from) AND b.p_to
), counts AS (
  SELECT project_id, topic_id,
         count(*) FILTER (WHERE day >= p_from)                             AS turns,
         count(DISTINCT id) FILTER (WHERE day >= p_from)                   AS conversations,
         count(DISTINCT question) FILTER (WHERE day >= p_from)             AS questions,
         max(occurred_at) FILTER (WHERE day >= p_from)                     AS last_asked_at,
         count(*) FILTER (WHERE day >= week_from)                          AS turns_last_7d,
         count(*) FILTER (WHERE day >= prev_from AND day < week_from)      AS turns_prev_7d
  FROM members CROSS JOIN bounds
  GROUP BY project_id, topic_id
  HAVING count(*) FILTER (WHERE day >= p_from) > 0
), in_period AS (
  SELECT m.* FROM members m CROSS JOIN bounds b WHERE m.day >= b.p_from
), examples AS (
  SELECT project_id, topic_id, list(example ORDER BY n DESC, question)[1:3] AS examples
  FROM (SELECT project_id, topic_id, question, count(*) AS n, arg_max(query, occurred_at) AS example FROM in_period GROUP BY ALL)
  GROUP BY ALL
), pages AS (
  SELECT project_id, topic_id, list(page_path ORDER BY n DESC, page_path)[1:3] AS top_pages
  FROM (SELECT project_id, topic_id, page_path, count(*) AS n FROM in_period WHERE page_path IS NOT NULL GROUP BY ALL)
  GROUP BY ALL
), cited AS (
  SELECT project_id, topic_id, list(url ORDER BY n DESC, url)[1:3] AS cited_sources
  FROM (
    SELECT m.project_id, m.topic_id, s.url, count(*) AS n
    FROM in_period m JOIN sources s ON s.project_id = m.project_id AND s.conversation_id = m.id AND s.occurred_at = m.occurred_at
    GROUP BY ALL
  )
  GROUP BY ALL
), prev_week AS (
  -- Every selected project has each of the 7 days before the last 7 loaded.
  SELECT count(*) = 7 AS loaded
  FROM (
    SELECT day FROM coverage_days CROSS JOIN bounds b
    WHERE pipeline = 'assistant_conversations' AND day BETWEEN b.prev_from AND b.week_from - 1
      AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
    GROUP BY day HAVING bool_and(state <> 'missing')
  )
)
SELECT t.project_id, t.topic_id, t.language, t.label, t.medoid, coalesce(t.distinctive_terms, []) AS distinctive_terms,
       CAST(c.questions AS DOUBLE) AS questions, CAST(c.turns AS DOUBLE) AS turns, CAST(c.conversations AS DOUBLE) AS conversations,
       CAST(c.turns_last_7d AS DOUBLE) AS turns_last_7d, CAST(c.turns_prev_7d AS DOUBLE) AS turns_prev_7d,
       (SELECT loaded FROM prev_week) AND CAST(timezone(coalesce(p.timezone, 'UTC'), t.period_from) AS DATE) <= (SELECT prev_from FROM bounds) AS prev_week_loaded,
       coalesce(e.examples, []) AS examples, coalesce(pg.top_pages, []) AS top_pages, coalesce(s.cited_sources, []) AS cited_sources,
       c.last_asked_at, t.period_from, t.computed_at,
       strftime(CAST(timezone(coalesce(p.timezone, 'UTC'), t.period_from) AS DATE), '%Y-%m-%d') AS period_from_day
FROM gap_topics_top t
JOIN counts c USING (project_id, topic_id)
LEFT JOIN examples e USING (project_id, topic_id)
LEFT JOIN pages pg USING (project_id, topic_id)
LEFT JOIN cited s USING (project_id, topic_id)
LEFT JOIN projects p ON p.project_id = t.project_id
ORDER BY c.turns DESC, c.conversations DESC, t.project_id, t.topic_id
LIMIT $limit;
