-- The lake columns of site_views_daily, in order (docs/lake.md).
SELECT project_id, day, human, ai, total, read_at
FROM site_views_daily
