-- Opens a window (or restarts one after a rejected cursor) for a project; creates the state row.
INSERT INTO sync_state (project_id, pipeline, organization, high_water, window_from, window_to, cursor, pages, rows, run_id, updated_at)
VALUES ($project_id, $pipeline, $organization, NULL, CAST($window_from AS TIMESTAMPTZ), CAST($window_to AS TIMESTAMPTZ),
        NULL, 0, 0, $run_id, CAST($now AS TIMESTAMPTZ))
ON CONFLICT (project_id, pipeline) DO UPDATE SET
  organization = excluded.organization,
  window_from  = excluded.window_from,
  window_to    = excluded.window_to,
  cursor       = NULL, pages = 0, rows = 0,
  run_id       = excluded.run_id,
  updated_at   = excluded.updated_at;
