-- Incremental step: each new question's most similar topic by its stored representation (cosine of
-- two unit vectors over the topic's kept terms), when at least $threshold. Candidates: the topics
-- sharing one of the question's candidate terms (its heaviest, not too common); a topic and a
-- question of two languages are never compared.
WITH cand AS (
  SELECT DISTINCT v.qi, t.topic_id
  FROM q_vec v JOIN gap_topic_terms t ON t.project_id = $project AND t.term = v.term AND t.language = v.language
  WHERE v.cand
), scored AS (
  SELECT c.qi, c.topic_id, sum(v.weight * t.weight) AS sim
  FROM cand c
  JOIN q_vec v ON v.qi = c.qi
  JOIN gap_topic_terms t ON t.project_id = $project AND t.topic_id = c.topic_id AND t.term = v.term
  GROUP BY ALL
)
SELECT qi, arg_max(topic_id, sim) AS topic_id, max(sim) AS sim
FROM scored
GROUP BY qi
HAVING max(sim) >= $threshold;
