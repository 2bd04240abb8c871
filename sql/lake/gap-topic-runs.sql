-- The lake columns of gap_topic_runs, in order (docs/lake.md).
SELECT project_id, computed_at, period_from, fingerprint, status, turns, questions, questions_skipped,
       topics, topics_kept_id, duration_ms, peak_rss_bytes
FROM gap_topic_runs
