-- Share of turns the assistant could not answer, per project and day. A day is counted in the
-- project's time zone (view conversation_days), never in the reader's session zone: every reader
-- gets the same rows. `timezone` names the zone of `day`.
CREATE OR REPLACE VIEW daily_unanswered_rate AS
SELECT
  project_id,
  day,
  count(*)                                                         AS turns,
  count(*) FILTER (WHERE resolution_status = 'unanswered')         AS unanswered,
  round(count(*) FILTER (WHERE resolution_status = 'unanswered') / count(*), 4) AS unanswered_rate,
  timezone
FROM conversation_days
GROUP BY ALL;
