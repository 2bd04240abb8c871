-- Turns, unanswered turns and unanswered rate per query category ('(none)' when uncategorized).
CREATE OR REPLACE VIEW category_breakdown AS
SELECT
  project_id,
  coalesce(query_category, '(none)')                               AS category,
  count(*)                                                         AS turns,
  count(*) FILTER (WHERE resolution_status = 'unanswered')         AS unanswered,
  round(count(*) FILTER (WHERE resolution_status = 'unanswered') / count(*), 4) AS unanswered_rate
FROM conversations
GROUP BY ALL;
