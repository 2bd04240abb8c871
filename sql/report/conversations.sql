-- Conversations started in the period and in the period before: threads whose first turn falls on
-- one of their UTC days.
SELECT CASE WHEN day >= CAST($from AS DATE) THEN 'current' ELSE 'previous' END AS period,
       CAST(count(*) AS DOUBLE)                                                AS conversations
FROM (SELECT project_id, CAST(make_timestamp(epoch_us(first_turn_at)) AS DATE) AS day FROM threads)
WHERE day BETWEEN CAST($prev_from AS DATE) AND CAST($to AS DATE)
  AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
GROUP BY 1;
