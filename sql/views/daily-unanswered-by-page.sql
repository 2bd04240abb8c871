-- unanswered_by_page per UTC day: turns, unanswered turns and unanswered rate per project, starting
-- page path ('(unknown)' when not captured) and day. Summed over all days it equals
-- unanswered_by_page. The day is the UTC date whatever the session's time zone (see
-- daily_category_breakdown).
CREATE OR REPLACE VIEW daily_unanswered_by_page AS
SELECT
  project_id,
  CAST(make_timestamp(epoch_us(occurred_at)) AS DATE)              AS day,
  coalesce(page_path, '(unknown)')                                 AS page_path,
  count(*)                                                         AS turns,
  count(*) FILTER (WHERE resolution_status = 'unanswered')         AS unanswered,
  round(count(*) FILTER (WHERE resolution_status = 'unanswered') / count(*), 4) AS unanswered_rate
FROM conversations
GROUP BY ALL;
