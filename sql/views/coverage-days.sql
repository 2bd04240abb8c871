-- Coverage as data: per project, pipeline and day of the project's time zone (projects.timezone;
-- UTC when the project has no row), whether that day's data is in the warehouse. Join it to any
-- per-day figure to tell "0" from "not loaded".
-- - state: 'settled' (the whole day was read and no re-read is due: final), 'loaded' (the whole
--   day was read; late data may still change it), 'missing' (not read, or read only in part:
--   today, a day a backfill has not reached yet).
-- - covered_share: the part of the day read (today: of its part up to now), 0..1.
-- - last_read_at: the latest complete read of any part of the day (NULL: never read).
-- Days run from the stream's backfill start (sync_state.backfill_from) or its oldest read day, at
-- least the last 30 days and at most the last 366, to today.
CREATE OR REPLACE VIEW coverage_days AS
WITH streams AS (
  SELECT s.project_id, s.pipeline, coalesce(p.timezone, 'UTC') AS timezone,
         least(coalesce(s.backfill_from, c.oldest), c.oldest) AS oldest
  FROM sync_state s
  LEFT JOIN projects p ON p.project_id = s.project_id
  LEFT JOIN (
    SELECT project_id, pipeline, min(range_from) FILTER (WHERE rows IS DISTINCT FROM 0 OR reads > 1) AS oldest
    FROM coverage GROUP BY ALL
  ) c ON c.project_id = s.project_id AND c.pipeline = s.pipeline
), days AS (
  SELECT project_id, pipeline, timezone, CAST(d AS DATE) AS day
  FROM streams,
       LATERAL (SELECT CAST(timezone(timezone, now()) AS DATE) AS today),
       generate_series(
         CAST(greatest(least(coalesce(CAST(timezone(timezone, oldest) AS DATE), today - 29), today - 29), today - 365) AS TIMESTAMP),
         CAST(today AS TIMESTAMP), INTERVAL 1 DAY) AS g(d)
), spans AS (
  SELECT *, timezone(timezone, CAST(day AS TIMESTAMP)) AS day_from,
         least(timezone(timezone, CAST(day + 1 AS TIMESTAMP)), now()) AS day_to
  FROM days
), parts AS (
  -- The read part of each day (least/greatest skip NULLs: a day no interval touches reads 0).
  SELECT s.project_id, s.pipeline, s.day, s.timezone, epoch_ms(s.day_to) - epoch_ms(s.day_from) AS day_ms,
         CASE WHEN c.range_from IS NULL THEN 0
              ELSE epoch_ms(least(c.range_to, s.day_to)) - epoch_ms(greatest(c.range_from, s.day_from)) END AS read_ms,
         c.settled, c.read_at
  FROM spans s
  LEFT JOIN coverage c
    ON c.project_id = s.project_id AND c.pipeline = s.pipeline AND c.range_from < s.day_to AND c.range_to > s.day_from
)
SELECT
  project_id, pipeline, day, timezone,
  CASE WHEN sum(read_ms) < any_value(day_ms) THEN 'missing'
       WHEN bool_and(settled) THEN 'settled'
       ELSE 'loaded' END AS state,
  round(sum(read_ms) / greatest(any_value(day_ms), 1), 4) AS covered_share,
  max(read_at) AS last_read_at
FROM parts
GROUP BY project_id, pipeline, day, timezone;
