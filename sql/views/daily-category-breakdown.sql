-- category_breakdown per day: turns, unanswered turns, clarifying-question turns and unanswered
-- rate per project, day and query category ('(none)' when uncategorized). Summed over all days it
-- equals category_breakdown. The day is counted in the project's time zone, whatever the session's
-- (view conversation_days; UTC unless the project declares a zone).
CREATE OR REPLACE VIEW daily_category_breakdown AS
SELECT
  project_id,
  day,
  coalesce(query_category, '(none)')                               AS category,
  count(*)                                                         AS turns,
  count(*) FILTER (WHERE resolution_status = 'unanswered')         AS unanswered,
  count(*) FILTER (WHERE response_type = 'clarifying_question')    AS clarifying_questions,
  round(count(*) FILTER (WHERE resolution_status = 'unanswered') / count(*), 4) AS unanswered_rate
FROM conversation_days
GROUP BY ALL;
