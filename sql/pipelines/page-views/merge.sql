-- A day read completely replaces that day's rows (window-atomic: all of a window's pages are in
-- this batch). merge_stats compares with the day's previous read: new paths, changed counts.
CREATE OR REPLACE TEMP TABLE merge_old AS
SELECT d.window_id, v.path, v.human, v.ai, v.total
FROM page_views_daily v JOIN batch_days d ON d.project_id = v.project_id AND d.day = v.day;

DELETE FROM page_views_daily WHERE (project_id, day) IN (SELECT project_id, day FROM batch_days);

INSERT INTO page_views_daily (project_id, day, path, human, ai, total, read_at)
SELECT project_id, day, path, human, ai, total, CAST($now AS TIMESTAMPTZ) FROM stage;

DELETE FROM site_views_daily WHERE (project_id, day) IN (SELECT project_id, day FROM batch_days);
INSERT INTO site_views_daily (project_id, day, human, ai, total, read_at)
SELECT project_id, day, human, ai, total, CAST($now AS TIMESTAMPTZ) FROM batch_days;

CREATE OR REPLACE TEMP TABLE merge_stats AS
SELECT d.window_id,
       count(s.path)                                                          AS rows,
       count(s.path) FILTER (WHERE o.path IS NULL)                            AS new_rows,
       count(s.path) FILTER (WHERE o.path IS NOT NULL AND (o.human <> s.human OR o.ai <> s.ai OR o.total <> s.total)) AS changed_rows
FROM batch_days d
LEFT JOIN stage s ON s.window_id = d.window_id
LEFT JOIN merge_old o ON o.window_id = s.window_id AND o.path = s.path
GROUP BY d.window_id;
