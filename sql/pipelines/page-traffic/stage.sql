-- Stage a batch of landed GET /views or GET /visitors pages (the same shape: per-page human, ai and
-- total, and the day's totals): one local day per window (the project's zone), the
-- per-page counts, and per window the site-wide totals (`batch_days`). Offset paging can show a
-- path twice when the ranking moves between pages: the last read wins (the merge applies the
-- pipelines' key (project_id, day, path) and tie-break to stage_all: src/sync/load/one-read-per-key.ts).
CREATE OR REPLACE TEMP TABLE stage_all AS
SELECT l.project_id, l.run_id, l.window_id, l.window_from, l.seq, l.ord,
       CAST(timezone(coalesce(p.timezone, 'UTC'), l.window_from) AS DATE) AS day,
       r.path                    AS path,
       CAST(r.human AS BIGINT)   AS human,
       CAST(r.ai AS BIGINT)      AS ai,
       CAST(r.total AS BIGINT)   AS total
FROM landed l LEFT JOIN projects p ON p.project_id = l.project_id;

CREATE OR REPLACE TEMP TABLE batch_days AS
SELECT l.project_id, l.window_id, CAST(timezone(coalesce(any_value(p.timezone), 'UTC'), any_value(l.window_from)) AS DATE) AS day,
       CAST(any_value(l.page.totals.human) AS BIGINT) AS human,
       CAST(any_value(l.page.totals.ai) AS BIGINT)    AS ai,
       CAST(any_value(l.page.totals.total) AS BIGINT) AS total
FROM landed_pages l LEFT JOIN projects p ON p.project_id = l.project_id
GROUP BY l.project_id, l.window_id;

CREATE OR REPLACE TEMP VIEW stage AS SELECT * FROM stage_all;
CREATE OR REPLACE TEMP VIEW stage_rejects AS
SELECT NULL::VARCHAR AS project_id, NULL::VARCHAR AS run_id, NULL::VARCHAR AS error, NULL::VARCHAR AS raw WHERE false;
