-- The unanswered turns of the period, each with the hash of its question normalized as
-- top_unanswered_questions does (case, whitespace, trailing punctuation): the topic step's input,
-- in a temp table kept narrow (no text) so a million turns fit the writer's memory limit.
CREATE OR REPLACE TEMP TABLE gap_turns AS
SELECT id, occurred_at, page_path, hash(question) AS qhash
FROM (
  SELECT id, occurred_at, page_path, question_text(query) AS question
  FROM conversations
  WHERE project_id = $project AND resolution_status = 'unanswered' AND occurred_at >= $from AND occurred_at < $to
)
WHERE question <> '';
