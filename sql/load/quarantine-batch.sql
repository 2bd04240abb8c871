-- Records of the batch that failed the contract (found at fetch time: view landed_invalid) or that
-- DuckDB cannot load (stage_rejects), with the reason and the raw record. A record re-read later
-- (re-reads, restarts, replays) is quarantined once: the same raw record of the same project is
-- not added again.
INSERT INTO quarantine (project_id, run_id, received_at, error, raw, pipeline)
SELECT project_id, any_value(run_id), CAST($now AS TIMESTAMPTZ), any_value(error), CAST(raw AS JSON), $pipeline
FROM (
  SELECT project_id, run_id, q.error AS error, CAST(q.raw AS VARCHAR) AS raw FROM landed_invalid
  UNION ALL
  SELECT project_id, run_id, error, raw FROM stage_rejects
) n
WHERE NOT EXISTS (
  SELECT 1 FROM quarantine q
  WHERE q.project_id = n.project_id AND CAST(q.raw AS VARCHAR) = CAST(CAST(n.raw AS JSON) AS VARCHAR)
)
GROUP BY project_id, raw;
