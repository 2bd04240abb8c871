-- Per day of the report's period: whether the assistant turns of every selected project are loaded
-- for that day (coverage_days: loaded or settled). Days absent here have no coverage recorded (a
-- warehouse written by an older version) and are shown as before. Today is never complete: the
-- report draws it as partial, whatever its state.
SELECT strftime(day, '%Y-%m-%d') AS day, bool_and(state <> 'missing') AS loaded
FROM coverage_days
WHERE pipeline = 'assistant_conversations'
  AND day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
  AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
GROUP BY day
ORDER BY day;
