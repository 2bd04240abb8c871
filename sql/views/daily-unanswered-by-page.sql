-- unanswered_by_page per day: turns, unanswered turns and unanswered rate per project, starting
-- page path ('(unknown)' when not captured) and day. Summed over all days it equals
-- unanswered_by_page. The day is the project's day (see
-- conversation_days).
CREATE OR REPLACE VIEW daily_unanswered_by_page AS
SELECT
  project_id,
  day,
  coalesce(page_path, '(unknown)')                                 AS page_path,
  count(*)                                                         AS turns,
  count(*) FILTER (WHERE resolution_status = 'unanswered')         AS unanswered,
  round(count(*) FILTER (WHERE resolution_status = 'unanswered') / count(*), 4) AS unanswered_rate
FROM conversation_days
GROUP BY ALL;
