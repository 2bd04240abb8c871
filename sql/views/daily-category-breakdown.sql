-- category_breakdown per UTC day: turns, unanswered turns, clarifying-question turns and unanswered
-- rate per project, day and query category ('(none)' when uncategorized). Summed over all days it
-- equals category_breakdown. The day is the UTC date of the instant whatever the session's time zone:
-- make_timestamp(epoch_us(t)) is t's UTC wall clock, the same date as timezone('UTC', t) but
-- computed without ICU (about 20 times cheaper per row).
CREATE OR REPLACE VIEW daily_category_breakdown AS
SELECT
  project_id,
  CAST(make_timestamp(epoch_us(occurred_at)) AS DATE)              AS day,
  coalesce(query_category, '(none)')                               AS category,
  count(*)                                                         AS turns,
  count(*) FILTER (WHERE resolution_status = 'unanswered')         AS unanswered,
  count(*) FILTER (WHERE response_type = 'clarifying_question')    AS clarifying_questions,
  round(count(*) FILTER (WHERE resolution_status = 'unanswered') / count(*), 4) AS unanswered_rate
FROM conversations
GROUP BY ALL;
