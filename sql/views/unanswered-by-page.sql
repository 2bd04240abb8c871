-- Where unanswered conversations start: turns per starting page path ('(unknown)' when not captured).
CREATE OR REPLACE VIEW unanswered_by_page AS
SELECT
  project_id,
  coalesce(page_path, '(unknown)')                                 AS page_path,
  count(*)                                                         AS turns,
  count(*) FILTER (WHERE resolution_status = 'unanswered')         AS unanswered,
  round(count(*) FILTER (WHERE resolution_status = 'unanswered') / count(*), 4) AS unanswered_rate
FROM conversations
GROUP BY ALL;
