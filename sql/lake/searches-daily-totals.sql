-- The lake columns of searches_daily_totals, in order (docs/lake.md).
SELECT project_id, day, total_searches, terms_read, truncated, read_at
FROM searches_daily_totals
