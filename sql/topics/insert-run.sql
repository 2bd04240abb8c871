INSERT INTO gap_topic_runs VALUES ($project, $now, $from, $fingerprint, $status, $turns, $questions, $skipped, $topics, $kept, $ms, $rss);
