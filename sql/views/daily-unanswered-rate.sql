-- Share of turns the assistant could not answer, per project and UTC day.
CREATE OR REPLACE VIEW daily_unanswered_rate AS
SELECT
  project_id,
  CAST(occurred_at AS DATE)                                        AS day,
  count(*)                                                         AS turns,
  count(*) FILTER (WHERE resolution_status = 'unanswered')         AS unanswered,
  round(count(*) FILTER (WHERE resolution_status = 'unanswered') / count(*), 4) AS unanswered_rate
FROM conversations
GROUP BY ALL;
