-- The lake columns of quarantine, in order (docs/lake.md); JSON (raw) as text.
SELECT project_id, run_id, received_at, error, CAST(raw AS VARCHAR) AS raw, pipeline
FROM quarantine
