-- What the topic step's result depends on in the warehouse: the period's unanswered turns (their
-- count, and the last change of any turn of the period: a turn that stops being unanswered moves
-- its updated_at too) and the last step's fingerprint. One scan of the period's turns: the range
-- on occurred_at skips the row groups before the period (turns are merged window by window, so
-- clustered by time), and a change to a turn outside the period, which cannot change the topics,
-- no longer computes them again.
SELECT
  count(*) FILTER (WHERE resolution_status = 'unanswered')                                          AS turns,
  CAST(max(updated_at) AS VARCHAR)                                                                  AS changed_at,
  (SELECT arg_max(fingerprint, computed_at) FROM gap_topic_runs WHERE project_id = $project)         AS last_fingerprint
FROM conversations
WHERE project_id = $project AND occurred_at >= $from AND occurred_at < $to;
