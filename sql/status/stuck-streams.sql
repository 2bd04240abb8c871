-- Streams stuck in one open window: their last $runs finished runs all stopped on the budget, and
-- either none of them completed a window (a window is fixed until it completes, so the open window
-- is the same one throughout) or the open window was opened before the first of them (its id is a
-- ULID minted when it started: its first 10 characters are that millisecond). The second catches
-- a window restarted from its start in every run (its cursor rejected) while the heads complete.
-- `since`: when the first of those runs started.
WITH recent AS (
  SELECT project_id, pipeline, run_id, status, started_at
  FROM sync_runs
  WHERE status NOT IN ('running')
  QUALIFY row_number() OVER (PARTITION BY project_id, pipeline ORDER BY started_at DESC) <= $runs
), streak AS (
  SELECT project_id, pipeline, count(*) AS runs, min(started_at) AS since,
         bool_and(status = 'budget_exhausted') AS all_stopped
  FROM recent GROUP BY ALL
)
SELECT k.project_id, k.pipeline, k.runs, k.since, s.window_purpose, s.window_from, s.window_to
FROM streak k
JOIN sync_state s ON s.project_id = k.project_id AND s.pipeline = k.pipeline
WHERE k.runs = $runs AND k.all_stopped AND s.window_to IS NOT NULL
  AND (
    NOT EXISTS (
      SELECT 1 FROM sync_windows w
      WHERE w.project_id = k.project_id AND w.pipeline = k.pipeline AND w.completed_at >= k.since
    )
    -- Ids of older versions (legacy-…) are not ULIDs: only the first rule applies to them.
    OR (regexp_full_match(s.window_id, '[0-9A-HJKMNP-TV-Z]{26}')
        AND list_sum([(instr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', s.window_id[i + 1]) - 1) * pow(32, 9 - i) FOR i IN range(10)])
            < epoch_ms(k.since))
  )
ORDER BY k.project_id, k.pipeline;
