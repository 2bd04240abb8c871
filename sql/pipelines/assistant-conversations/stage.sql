-- Stage a batch of landed assistant pages (temp table `landed`: project_id, run_id, window_id, seq,
-- ord, r = the record typed by the contract, extra = the fields it does not name).
-- Produces `stage` (one row per turn, typed, the latest read of each turn in the batch) and
-- `stage_rejects` (records DuckDB itself cannot load, e.g. a date that does not exist).
CREATE OR REPLACE TEMP TABLE stage_all AS
SELECT
  project_id,
  run_id,
  window_id,
  seq,
  ord,
  r.id                                        AS id,
  TRY_CAST(r."timestamp" AS TIMESTAMPTZ)      AS occurred_at,
  r."timestamp"                               AS raw_timestamp,
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
  extra,
  r.sources                                   AS sources,
  hash(r.sources)                             AS sources_hash,
  r                                           AS r
FROM landed;

CREATE OR REPLACE TEMP TABLE stage_rejects AS
SELECT project_id, run_id,
       'timestamp: "' || raw_timestamp || '" is not a date-time DuckDB can store' AS error,
       CAST(to_json(r) AS VARCHAR) AS raw
FROM stage_all
WHERE occurred_at IS NULL;

-- The latest read of each turn in the batch wins (a later page, or later in the same page).
CREATE OR REPLACE TEMP TABLE stage AS
SELECT * EXCLUDE (raw_timestamp, r)
FROM stage_all
WHERE occurred_at IS NOT NULL
QUALIFY row_number() OVER (PARTITION BY project_id, id, occurred_at ORDER BY seq DESC, ord DESC) = 1;
