-- Stage a batch of landed assistant pages. Reads the view `landed` (project_id, run_id, window_id,
-- seq, ord, r = the record typed by the contract, extra = the fields it does not name), which reads
-- the page files themselves: this is the one pass over the batch. Produces
--   stage_all      every record, typed, with `reject` set when DuckDB itself cannot load it (a date
--                  that does not exist); the merge then keeps one read of each turn read twice in
--                  the batch (the pipeline's key and tie-break: a later page, or later in the same
--                  page, wins; src/sync/load/one-read-per-key.ts);
--   stage          the view of the turns to merge;
--   stage_rejects  the view of the records for quarantine.
CREATE OR REPLACE TEMP TABLE stage_all AS
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
  extra,
  r.sources                                   AS sources,
  -- the merge compares this one number, not the stored values (NULLs and order matter: hash of a struct)
  hash({q: r.query, a: r.response, t: coalesce(r.responseType, 'answer'), s: r.resolutionStatus, c: r.queryCategory,
        u: r.pageUrl, x: CAST(extra AS VARCHAR), src: r.sources}) AS content_hash,
  CASE WHEN TRY_CAST(r."timestamp" AS TIMESTAMPTZ) IS NULL
       THEN 'timestamp: "' || r."timestamp" || '" is not a date-time DuckDB can store' END AS reject,
  CASE WHEN TRY_CAST(r."timestamp" AS TIMESTAMPTZ) IS NULL THEN CAST(to_json(r) AS VARCHAR) END AS reject_raw
FROM landed;

CREATE OR REPLACE TEMP VIEW stage AS
SELECT * EXCLUDE (reject, reject_raw) FROM stage_all WHERE reject IS NULL;

CREATE OR REPLACE TEMP VIEW stage_rejects AS
SELECT project_id, run_id, reject AS error, reject_raw AS raw FROM stage_all WHERE reject IS NOT NULL;
