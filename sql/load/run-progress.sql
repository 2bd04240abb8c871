UPDATE sync_runs SET
  requests = requests + $requests, pages = pages + 1,
  rows_upserted = rows_upserted + $rows, rows_quarantined = rows_quarantined + $quarantined
WHERE run_id = $run_id;
