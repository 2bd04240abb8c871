-- Stage a batch of landed GET /feedback/by-page answers. A day's answers are the final answers of
-- its split requests (by source, then status): disjoint parts whose counts add up per path. A day
-- whose split still said hasMore is marked truncated (its rows are then incomplete).
CREATE OR REPLACE TEMP TABLE stage_all AS
SELECT l.project_id, any_value(l.run_id) AS run_id, l.window_id, any_value(l.window_from) AS window_from,
       CAST(timezone(coalesce(any_value(p.timezone), 'UTC'), any_value(l.window_from)) AS DATE) AS day,
       r.path                           AS path,
       CAST(sum(r.thumbsUp) AS BIGINT)   AS thumbs_up,
       CAST(sum(r.thumbsDown) AS BIGINT) AS thumbs_down,
       CAST(sum(r.code) AS BIGINT)       AS code,
       CAST(sum(r.total) AS BIGINT)      AS total
FROM (
  -- Within one answer a path is listed once: a path served twice (a repeated record) counts once.
  -- (Its own rule, not the generated per-key one: pipelines/feedback-by-page.ts says why.)
  SELECT * FROM landed QUALIFY row_number() OVER (PARTITION BY project_id, window_id, seq, r.path ORDER BY ord) = 1
) l LEFT JOIN projects p ON p.project_id = l.project_id
GROUP BY l.project_id, l.window_id, r.path;

CREATE OR REPLACE TEMP TABLE batch_days AS
SELECT l.project_id, l.window_id, CAST(timezone(coalesce(any_value(p.timezone), 'UTC'), any_value(l.window_from)) AS DATE) AS day,
       bool_or(l.truncated) AS truncated
FROM landed_pages l LEFT JOIN projects p ON p.project_id = l.project_id
GROUP BY l.project_id, l.window_id;

CREATE OR REPLACE TEMP VIEW stage AS SELECT * FROM stage_all;
CREATE OR REPLACE TEMP VIEW stage_rejects AS
SELECT NULL::VARCHAR AS project_id, NULL::VARCHAR AS run_id, NULL::VARCHAR AS error, NULL::VARCHAR AS raw WHERE false;
