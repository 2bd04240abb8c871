-- The lake columns of assistant_callers_daily, in order (docs/lake.md).
SELECT project_id, day, web, api, other, total, read_at
FROM assistant_callers_daily
