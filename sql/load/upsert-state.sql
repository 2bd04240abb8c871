-- The checkpoint of a stream after a merged batch, in the batch's transaction: the open window
-- (NULLs when the last merged page completed it), where it continues, and the last merged page.
INSERT INTO sync_state (project_id, pipeline, organization, high_water, window_from, window_to, window_purpose, window_id,
                        cursor, "offset", pages, rows, window_new, window_changed, merged_seq, window_limit_ms, run_id, updated_at)
VALUES ($project_id, $pipeline, $organization, CAST($high_water AS TIMESTAMPTZ), CAST($window_from AS TIMESTAMPTZ),
        CAST($window_to AS TIMESTAMPTZ), $window_purpose, $window_id, $cursor, $offset, $pages, $rows, $window_new,
        $window_changed, $merged_seq, $window_limit_ms, $run_id, CAST($now AS TIMESTAMPTZ))
ON CONFLICT (project_id, pipeline) DO UPDATE SET
  organization = excluded.organization, high_water = excluded.high_water,
  window_from = excluded.window_from, window_to = excluded.window_to, window_purpose = excluded.window_purpose,
  window_id = excluded.window_id, cursor = excluded.cursor, "offset" = excluded."offset", pages = excluded.pages,
  rows = excluded.rows, window_new = excluded.window_new, window_changed = excluded.window_changed,
  merged_seq = excluded.merged_seq, window_limit_ms = excluded.window_limit_ms, run_id = excluded.run_id,
  updated_at = excluded.updated_at;
