-- A day read completely replaces that day's terms and totals (window-atomic).
CREATE OR REPLACE TEMP TABLE merge_old AS
SELECT d.window_id, s.search_query, s.hits
FROM searches_daily s JOIN batch_days d ON d.project_id = s.project_id AND d.day = s.day;

DELETE FROM searches_daily WHERE (project_id, day) IN (SELECT project_id, day FROM batch_days);
DELETE FROM searches_daily_totals WHERE (project_id, day) IN (SELECT project_id, day FROM batch_days);

INSERT INTO searches_daily (project_id, day, search_query, hits, ctr, top_clicked_page, last_searched_at, rank, read_at)
SELECT project_id, day, search_query, hits, ctr, top_clicked_page, last_searched_at, rank, CAST($now AS TIMESTAMPTZ) FROM stage;

INSERT INTO searches_daily_totals (project_id, day, total_searches, terms_read, truncated, read_at)
SELECT d.project_id, d.day, d.total_searches, (SELECT count(*) FROM stage s WHERE s.window_id = d.window_id), d.truncated,
       CAST($now AS TIMESTAMPTZ)
FROM batch_days d;

CREATE OR REPLACE TEMP TABLE merge_stats AS
SELECT d.window_id,
       count(s.search_query)                                                  AS rows,
       count(s.search_query) FILTER (WHERE o.search_query IS NULL)            AS new_rows,
       count(s.search_query) FILTER (WHERE o.search_query IS NOT NULL AND o.hits <> s.hits) AS changed_rows
FROM batch_days d
LEFT JOIN stage s ON s.window_id = d.window_id
LEFT JOIN merge_old o ON o.window_id = s.window_id AND o.search_query = s.search_query
GROUP BY d.window_id;
