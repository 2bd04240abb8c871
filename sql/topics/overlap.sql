-- Per new cluster and previous topic: turns in both; with each one's size in turns, for the
-- Jaccard match that keeps topic ids stable.
WITH assigned AS (
  SELECT g.id, g.occurred_at, a.cluster FROM gap_turns g JOIN topic_keys a USING (qhash)
), previous AS (
  SELECT conversation_id AS id, occurred_at, topic_id FROM gap_topic_members WHERE project_id = $project
), sizes AS (
  SELECT cluster, count(*) AS size FROM assigned GROUP BY cluster
), old_sizes AS (
  SELECT topic_id, count(*) AS size FROM previous GROUP BY topic_id
)
SELECT x.cluster, x.topic_id, x.overlap, s.size AS cluster_size, o.size AS topic_size
FROM (
  SELECT a.cluster, p.topic_id, count(*) AS overlap
  FROM assigned a JOIN previous p USING (id, occurred_at)
  GROUP BY ALL
) x JOIN sizes s USING (cluster) JOIN old_sizes o USING (topic_id)
ORDER BY x.cluster, x.topic_id;
