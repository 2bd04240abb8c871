-- How many complete days of each source the report's period and the period before have loaded
-- (coverage_days: loaded or settled). A day counts when every selected project has it; today is
-- not complete and is left out of both counts.
WITH per_day AS (
  SELECT pipeline, day, bool_and(state <> 'missing') AS loaded
  FROM coverage_days
  WHERE (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
    AND pipeline IN ('assistant_conversations', 'page_views', 'page_visitors', 'feedback_by_page', 'searches')
  GROUP BY ALL
)
SELECT pipeline,
       count(*) FILTER (WHERE loaded AND day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) - 1)           AS loaded,
       count(*) FILTER (WHERE loaded AND day BETWEEN CAST($prev_from AS DATE) AND CAST($prev_to AS DATE))     AS prev_loaded
FROM per_day
GROUP BY pipeline
ORDER BY pipeline;
