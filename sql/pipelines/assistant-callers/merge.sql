-- A day read again replaces the day's row.
CREATE OR REPLACE TEMP TABLE merge_old AS
SELECT d.window_id, c.total FROM assistant_callers_daily c JOIN batch_days d ON d.project_id = c.project_id AND d.day = c.day;

DELETE FROM assistant_callers_daily WHERE (project_id, day) IN (SELECT project_id, day FROM batch_days);
INSERT INTO assistant_callers_daily (project_id, day, web, api, other, total, read_at)
SELECT project_id, day, web, api, other, total, CAST($now AS TIMESTAMPTZ) FROM stage;

CREATE OR REPLACE TEMP TABLE merge_stats AS
SELECT s.window_id, count(*) AS rows, count(*) FILTER (WHERE o.window_id IS NULL) AS new_rows,
       count(*) FILTER (WHERE o.total IS DISTINCT FROM s.total AND o.window_id IS NOT NULL) AS changed_rows
FROM stage s LEFT JOIN merge_old o ON o.window_id = s.window_id
GROUP BY s.window_id;
