-- What the topic step's result depends on in the warehouse: the period's unanswered turns (their
-- count and last change) and the last step's fingerprint.
SELECT
  (SELECT count(*) FROM conversations
    WHERE project_id = $project AND resolution_status = 'unanswered' AND occurred_at >= $from AND occurred_at < $to) AS turns,
  (SELECT CAST(max(updated_at) AS VARCHAR) FROM conversations WHERE project_id = $project) AS changed_at,
  (SELECT arg_max(fingerprint, computed_at) FROM gap_topic_runs WHERE project_id = $project) AS last_fingerprint;
