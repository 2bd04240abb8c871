-- Per project and pipeline: checkpoint, coverage summary, last run, quarantine size.
WITH cov AS (
  SELECT project_id, pipeline,
         min(range_from)                                        AS covered_from,
         max(range_to)                                          AS head_at,
         -- settled up to the start of the oldest interval still waiting for a re-read
         coalesce(min(range_from) FILTER (WHERE NOT settled), max(range_to)) AS settled_to,
         bool_or(rows = 0 AND range_from = (SELECT min(range_from) FROM coverage c2
                                            WHERE c2.project_id = coverage.project_id AND c2.pipeline = coverage.pipeline)) AS bottom_empty,
         count(*)                                               AS intervals
  FROM coverage GROUP BY project_id, pipeline
), last_run AS (
  SELECT * FROM sync_runs QUALIFY row_number() OVER (PARTITION BY project_id, pipeline ORDER BY started_at DESC) = 1
)
SELECT
  s.project_id, s.pipeline, s.organization, s.backfill_from,
  c.covered_from, c.head_at, c.settled_to, coalesce(c.bottom_empty, false) AS bottom_empty,
  s.window_from, s.window_to, s.window_purpose, s.pages AS window_pages,
  r.status AS last_status, r.started_at AS last_started_at, r.finished_at AS last_finished_at, r.error AS last_error,
  r.requests AS last_requests,
  (SELECT count(*) FROM quarantine q WHERE q.project_id = s.project_id AND coalesce(q.pipeline, 'assistant_conversations') = s.pipeline) AS quarantined
FROM sync_state s
LEFT JOIN cov c ON c.project_id = s.project_id AND c.pipeline = s.pipeline
LEFT JOIN last_run r ON r.project_id = s.project_id AND r.pipeline = s.pipeline
ORDER BY s.project_id, s.pipeline;
