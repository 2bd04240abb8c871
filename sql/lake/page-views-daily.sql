-- The lake columns of page_views_daily, in order (docs/lake.md).
SELECT project_id, day, path, human, ai, total, read_at
FROM page_views_daily
