-- Questions the assistant could not answer, grouped by normalized text (case, whitespace and
-- trailing punctuation ignored): the documentation gaps, most asked first.
CREATE OR REPLACE VIEW top_unanswered_questions AS
SELECT
  project_id,
  question,
  count(*)                AS times_asked,
  max(occurred_at)        AS last_asked_at,
  arg_max(query, occurred_at) AS example_query,
  count(DISTINCT id)      AS conversations
FROM (
  SELECT *, question_text(query) AS question
  FROM conversations
  WHERE resolution_status = 'unanswered'
)
GROUP BY project_id, question;
