INSERT INTO sync_windows (project_id, pipeline, window_id, run_id, purpose, window_from, window_to, completed_at,
                          pages, rows, new_rows, changed_rows)
VALUES ($project_id, $pipeline, $window_id, $run_id, $purpose, CAST($window_from AS TIMESTAMPTZ), CAST($window_to AS TIMESTAMPTZ),
        CAST($now AS TIMESTAMPTZ), $pages, $rows, $new_rows, $changed_rows);
