-- The records of a batch of landed pages (temp table landed_files: project_id, run_id, seq,
-- window_id, extras, recs), one row each with its position in the page (1-based `ord`) and the
-- fields the contract does not name (`extra`, kept as JSON).
CREATE OR REPLACE TEMP TABLE landed AS
WITH recs AS (
  SELECT project_id, run_id, window_id, seq, unnest(recs) AS r, generate_subscripts(recs, 1) AS ord
  FROM landed_files
), ex AS (
  SELECT project_id, seq, e.i + 1 AS ord, e.x AS extra
  FROM (SELECT project_id, seq, unnest(extras) AS e FROM landed_files)
)
SELECT recs.project_id, recs.run_id, recs.window_id, recs.seq, recs.ord, recs.r, ex.extra
FROM recs LEFT JOIN ex ON ex.project_id = recs.project_id AND ex.seq = recs.seq AND ex.ord = recs.ord;
