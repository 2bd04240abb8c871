-- The lake columns of site_visitors_daily, in order (docs/lake.md).
SELECT project_id, day, human, ai, total, read_at
FROM site_visitors_daily
