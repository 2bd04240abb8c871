-- Distinct questions of the period (normalized as in gap-turns.sql), most asked first, at most
-- $cap; `example` is one way it was asked.
SELECT question, CAST(hash(question) AS VARCHAR) AS qhash, count(*) AS n, min(query) AS example
FROM (
  SELECT query, lower(trim(regexp_replace(regexp_replace(query, '\s+', ' ', 'g'), '[\s?!.,;:]+$', ''))) AS question
  FROM conversations
  WHERE project_id = $project AND resolution_status = 'unanswered' AND occurred_at >= $from AND occurred_at < $to
)
WHERE question <> ''
GROUP BY question
ORDER BY n DESC, question
LIMIT $cap;
