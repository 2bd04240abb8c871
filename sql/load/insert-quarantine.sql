-- A record re-read in a later window (lookback) or after a restart is quarantined once: the same
-- raw record of the same project is not added again.
INSERT INTO quarantine (project_id, run_id, received_at, error, raw)
SELECT $project_id, $run_id, CAST($now AS TIMESTAMPTZ), $error, CAST($raw AS JSON)
WHERE NOT EXISTS (SELECT 1 FROM quarantine WHERE project_id = $project_id AND CAST(raw AS VARCHAR) = CAST(CAST($raw AS JSON) AS VARCHAR));
