-- top_unanswered_questions per day and starting page: unanswered turns grouped by normalized
-- question text (the same normalization as top_unanswered_questions: case, whitespace and trailing
-- punctuation ignored; keep the two in step), the page the conversation started on ('(unknown)' when
-- not captured) and the project's day (see conversation_days).
-- Summed over days and pages, times_asked equals top_unanswered_questions.times_asked.
CREATE OR REPLACE VIEW daily_unanswered_questions AS
SELECT
  project_id,
  day,
  question,
  page_path,
  count(*)                    AS times_asked,
  max(occurred_at)            AS last_asked_at,
  arg_max(query, occurred_at) AS example_query
FROM (
  SELECT
    project_id, occurred_at, query,
    day,
    coalesce(page_path, '(unknown)')           AS page_path,
    question_text(query) AS question
  FROM conversation_days
  WHERE resolution_status = 'unanswered'
)
GROUP BY project_id, day, question, page_path;
