-- Conversations started in the period and in the period before: threads whose first turn falls on
-- one of their days, in the project's time zone (projects.timezone; UTC when the project has no row).
SELECT CASE WHEN day >= CAST($from AS DATE) THEN 'current' ELSE 'previous' END AS period,
       CAST(count(*) AS DOUBLE)                                                AS conversations
FROM (
  SELECT t.project_id, CAST(timezone(coalesce(p.timezone, 'UTC'), t.first_turn_at) AS DATE) AS day
  FROM threads t LEFT JOIN projects p ON p.project_id = t.project_id
)
WHERE day BETWEEN CAST($prev_from AS DATE) AND CAST($to AS DATE)
  AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
GROUP BY 1;
