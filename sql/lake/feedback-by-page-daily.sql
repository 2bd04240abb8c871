-- The lake columns of feedback_by_page_daily, in order (docs/lake.md).
SELECT project_id, day, path, thumbs_up, thumbs_down, code, total, truncated, read_at
FROM feedback_by_page_daily
