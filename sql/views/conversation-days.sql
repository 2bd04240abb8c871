-- Each turn with the day it happened on in its project's time zone (projects.timezone; UTC when the
-- project has no row), never in the reader's session zone: the one definition of "day" that every
-- per-day view uses. UTC days are computed without ICU (make_timestamp(epoch_us(t)) is t's UTC wall
-- clock: about 20 times cheaper per row than timezone()); other zones through timezone().
CREATE OR REPLACE VIEW conversation_days AS
SELECT
  c.*,
  CASE WHEN coalesce(p.timezone, 'UTC') = 'UTC' THEN CAST(make_timestamp(epoch_us(c.occurred_at)) AS DATE)
       ELSE CAST(timezone(p.timezone, c.occurred_at) AS DATE) END AS day,
  coalesce(p.timezone, 'UTC')                                   AS timezone
FROM conversations c
LEFT JOIN projects p ON p.project_id = c.project_id;
