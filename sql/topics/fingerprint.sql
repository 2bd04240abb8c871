-- What the topic step's result depends on in the warehouse: the period's turns (their count, and
-- the last change of any of them: a turn that stops being unanswered moves its updated_at, a new
-- or deleted one moves the count) and the last step's fingerprint, with the unanswered turns it
-- counted (an unchanged step reports them). One scan of two columns of the period's turns: the
-- range on occurred_at skips the row groups before the period (turns are merged window by window,
-- so clustered by time), no string column is read, and a change to a turn older than the period,
-- which cannot change the topics, does not compute them again.
SELECT
  count(*)                                                                                          AS period_turns,
  CAST(max(updated_at) AS VARCHAR)                                                                  AS changed_at,
  (SELECT arg_max(fingerprint, computed_at) FROM gap_topic_runs WHERE project_id = $project)         AS last_fingerprint,
  (SELECT arg_max(turns, computed_at) FROM gap_topic_runs WHERE project_id = $project)               AS last_turns
FROM conversations
WHERE project_id = $project AND occurred_at >= $from AND occurred_at < $to;
