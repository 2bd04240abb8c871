-- The checkpoint of a page, in the same transaction as its rows. When the window is complete the
-- high-water mark moves to the window's end and the window closes.
UPDATE sync_state SET
  cursor      = CASE WHEN $complete THEN NULL ELSE CAST($cursor AS VARCHAR) END,
  pages       = CASE WHEN $complete THEN 0 ELSE pages + 1 END,
  rows        = CASE WHEN $complete THEN 0 ELSE rows + $rows END,
  high_water  = CASE WHEN $complete THEN window_to ELSE high_water END,
  window_from = CASE WHEN $complete THEN NULL ELSE window_from END,
  window_to   = CASE WHEN $complete THEN NULL ELSE window_to END,
  run_id      = $run_id,
  updated_at  = CAST($now AS TIMESTAMPTZ)
WHERE project_id = $project_id AND pipeline = $pipeline;
