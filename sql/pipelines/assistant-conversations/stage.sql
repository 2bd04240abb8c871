-- Stage a batch of landed assistant pages (temp table landed_files: one row per page, `recs` its
-- records typed by the contract, `extras` the fields the contract does not name, by position).
-- One materialisation, `stage_all`; the views the merge reads:
--   stage          one row per turn, typed, the latest read of each turn in the batch (a later
--                  page, or later in the same page, wins);
--   stage_rejects  records DuckDB itself cannot load (a date that does not exist), for quarantine.
CREATE OR REPLACE TEMP TABLE stage_all AS
WITH recs AS (
  SELECT project_id, run_id, window_id, seq, extras, unnest(recs) AS r, generate_subscripts(recs, 1) AS ord
  FROM landed_files
), typed AS (
  SELECT
    project_id, run_id, window_id, seq, ord,
    r.id                                        AS id,
    TRY_CAST(r."timestamp" AS TIMESTAMPTZ)      AS occurred_at,
    r.query                                     AS query,
    r.response                                  AS response,
    coalesce(r.responseType, 'answer')          AS response_type,
    r.resolutionStatus                          AS resolution_status,
    r.queryCategory                             AS query_category,
    r.pageUrl                                   AS page_url,
    -- path of the page URL: scheme and host removed, query and fragment dropped; '/' for a bare host
    CASE WHEN r.pageUrl IS NULL THEN NULL
         ELSE coalesce(nullif(regexp_extract(regexp_replace(r.pageUrl, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*', ''), '^[^?#]*'), ''), '/')
    END                                         AS page_path,
    CASE WHEN len(extras) > 0 THEN list_filter(extras, e -> e.i + 1 = ord)[1].x END AS extra,
    r.sources                                   AS sources,
    hash(r.sources)                             AS sources_hash,
    CASE WHEN TRY_CAST(r."timestamp" AS TIMESTAMPTZ) IS NULL
         THEN 'timestamp: "' || r."timestamp" || '" is not a date-time DuckDB can store' END AS reject,
    CASE WHEN TRY_CAST(r."timestamp" AS TIMESTAMPTZ) IS NULL THEN CAST(to_json(r) AS VARCHAR) END AS reject_raw
  FROM recs
)
SELECT *,
       reject IS NULL AND row_number() OVER (PARTITION BY project_id, id, occurred_at ORDER BY seq DESC, ord DESC) = 1 AS keep
FROM typed;

CREATE OR REPLACE TEMP VIEW stage AS
SELECT * EXCLUDE (reject, reject_raw, keep) FROM stage_all WHERE keep;

CREATE OR REPLACE TEMP VIEW stage_rejects AS
SELECT project_id, run_id, reject AS error, reject_raw AS raw FROM stage_all WHERE reject IS NOT NULL;
