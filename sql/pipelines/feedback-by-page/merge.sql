-- A day read completely replaces that day's rows (window-atomic).
CREATE OR REPLACE TEMP TABLE merge_old AS
SELECT d.window_id, f.path, f.total
FROM feedback_by_page_daily f JOIN batch_days d ON d.project_id = f.project_id AND d.day = f.day;

DELETE FROM feedback_by_page_daily WHERE (project_id, day) IN (SELECT project_id, day FROM batch_days);

INSERT INTO feedback_by_page_daily (project_id, day, path, thumbs_up, thumbs_down, code, total, truncated, read_at)
SELECT s.project_id, s.day, s.path, s.thumbs_up, s.thumbs_down, s.code, s.total, d.truncated, CAST($now AS TIMESTAMPTZ)
FROM stage s JOIN batch_days d ON d.window_id = s.window_id;

CREATE OR REPLACE TEMP TABLE merge_stats AS
SELECT d.window_id,
       count(s.path)                                                          AS rows,
       count(s.path) FILTER (WHERE o.path IS NULL)                            AS new_rows,
       count(s.path) FILTER (WHERE o.path IS NOT NULL AND o.total <> s.total) AS changed_rows
FROM batch_days d
LEFT JOIN stage s ON s.window_id = d.window_id
LEFT JOIN merge_old o ON o.window_id = s.window_id AND o.path = s.path
GROUP BY d.window_id;
