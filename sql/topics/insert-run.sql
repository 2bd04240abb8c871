INSERT INTO gap_topic_runs (project_id, computed_at, period_from, fingerprint, status, turns, questions, questions_skipped, topics, topics_kept_id, duration_ms, peak_rss_bytes, mode)
VALUES ($project, $now, $from, $fingerprint, $status, $turns, $questions, $skipped, $topics, $kept, $ms, $rss, $mode);
