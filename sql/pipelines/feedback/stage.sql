-- Stage a batch of landed feedback pages (view `landed`, see docs/pipelines.md). A createdAt DuckDB
-- cannot store goes to quarantine; within the batch the latest read of an entry wins (the merge
-- applies the pipeline's key and tie-break to stage_all: src/sync/load/one-read-per-key.ts).
CREATE OR REPLACE TEMP TABLE stage_all AS
SELECT
  project_id, run_id, window_id, seq, ord,
  r.id                                            AS id,
  TRY_CAST(r.createdAt AS TIMESTAMPTZ)            AS created_at,
  r.path, r.comment, r.source, r.status, r.helpful, r.contact, r.code, r.filename, r.lang,
  extra,
  hash({p: r.path, c: r.comment, t: r.createdAt, s: r.source, st: r.status, h: r.helpful, ct: r.contact, co: r.code,
        f: r.filename, l: r.lang, x: CAST(extra AS VARCHAR)}) AS content_hash,
  CASE WHEN r.createdAt IS NOT NULL AND TRY_CAST(r.createdAt AS TIMESTAMPTZ) IS NULL
       THEN 'createdAt: "' || r.createdAt || '" is not a date-time DuckDB can store' END AS reject,
  CASE WHEN r.createdAt IS NOT NULL AND TRY_CAST(r.createdAt AS TIMESTAMPTZ) IS NULL THEN CAST(to_json(r) AS VARCHAR) END AS reject_raw
FROM landed;

CREATE OR REPLACE TEMP VIEW stage AS SELECT * EXCLUDE (reject, reject_raw) FROM stage_all WHERE reject IS NULL;
CREATE OR REPLACE TEMP VIEW stage_rejects AS SELECT project_id, run_id, reject AS error, reject_raw AS raw FROM stage_all WHERE reject IS NOT NULL;
