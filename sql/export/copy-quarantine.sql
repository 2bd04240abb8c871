-- quarantine is small: one file, rewritten whole when any row changed; raw (JSON) as a string.
COPY (
  SELECT project_id, run_id, received_at, error, CAST(raw AS VARCHAR) AS raw, pipeline
  FROM quarantine
  ORDER BY received_at, project_id, run_id, error
) TO $file (FORMAT parquet, COMPRESSION zstd);
