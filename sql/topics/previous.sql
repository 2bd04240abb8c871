-- The topic each question of the period had in the previous step (the one most of its turns had):
-- incremental runs start from it.
WITH x AS (
  SELECT g.qhash, m.topic_id, count(*) AS n
  FROM gap_turns g JOIN gap_topic_members m ON m.project_id = $project AND m.conversation_id = g.id AND m.occurred_at = g.occurred_at
  GROUP BY ALL
)
SELECT CAST(qhash AS VARCHAR) AS qhash, first(topic_id ORDER BY n DESC, topic_id) AS topic_id FROM x GROUP BY qhash;
