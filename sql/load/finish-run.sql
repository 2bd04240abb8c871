UPDATE sync_runs SET
  finished_at = CAST($now AS TIMESTAMPTZ), status = $status, error = $error, requests = greatest(requests, $requests),
  window_from = CAST($window_from AS TIMESTAMPTZ), window_to = CAST($window_to AS TIMESTAMPTZ)
WHERE run_id = $run_id;
