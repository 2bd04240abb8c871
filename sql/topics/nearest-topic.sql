-- Incremental step: each new question's most similar topic by its stored representation (cosine of
-- two unit vectors over the topic's kept terms), when at least $threshold. Candidates: the topics
-- sharing one of the question's candidate words (its heaviest, not too common), at most 24 per
-- question by that partial score, so the join stays small whatever the topics; languages as
-- sameTopicLanguage (question-features.ts): the same, or an undetermined question and $main.
-- The cosine joins each candidate topic's terms (at most 24) to the question's terms by (qi, term),
-- with the hash table on the batch's q_vec: not each question's terms (about 40) to every topic's
-- terms by (topic, term), which probed that table once per question term and pair (1.7M probes a
-- batch of 2,000 in the bench, against 1.1M: about a third less CPU, the same topics).
WITH cand AS (
  SELECT v.qi, t.topic_id, sum(v.weight * t.weight) AS partial
  FROM q_vec v JOIN gap_topic_terms t ON t.project_id = $project AND t.term = v.term
  WHERE v.cand AND (t.language = v.language OR (v.language = 'und' AND t.language = $main) OR (t.language = 'und' AND v.language = $main))
  GROUP BY v.qi, t.topic_id
  QUALIFY row_number() OVER (PARTITION BY v.qi ORDER BY partial DESC, t.topic_id) <= 24
), pair_terms AS (
  SELECT c.qi, c.topic_id, t.term, t.weight
  FROM gap_topic_terms t JOIN cand c ON t.topic_id = c.topic_id
  WHERE t.project_id = $project
), scored AS (
  SELECT p.qi, p.topic_id, sum(v.weight * p.weight) AS sim
  FROM pair_terms p JOIN q_vec v ON v.qi = p.qi AND v.term = p.term
  GROUP BY ALL
)
SELECT qi, arg_max(topic_id, sim) AS topic_id, max(sim) AS sim FROM scored GROUP BY qi HAVING max(sim) >= $threshold;
