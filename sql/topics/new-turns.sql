-- Incremental step: the period's unanswered turns that are no topic's member yet (arrived since the
-- last step, or were over the cap then), with their question normalized as gap-turns.sql does. Only
-- these are read as text: the turns already placed are not normalized again.
CREATE OR REPLACE TEMP TABLE gap_new AS
SELECT id, occurred_at, page_path, query, question, hash(question) AS qhash
FROM (
  SELECT c.id, c.occurred_at, c.page_path, c.query, lower(trim(regexp_replace(regexp_replace(c.query, '\s+', ' ', 'g'), '[\s?!.,;:]+$', ''))) AS question
  FROM conversations c
  WHERE c.project_id = $project AND c.resolution_status = 'unanswered' AND c.occurred_at >= $from AND c.occurred_at < $to
    AND NOT EXISTS (SELECT 1 FROM gap_topic_members m WHERE m.project_id = $project AND m.conversation_id = c.id AND m.occurred_at = c.occurred_at)
)
WHERE question <> '';
