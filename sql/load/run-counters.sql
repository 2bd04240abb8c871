-- A merged batch's share of a run: its pages, the requests they cost (a run's own count, which also
-- holds failed requests, replaces it when larger at the end), rows merged, records quarantined.
UPDATE sync_runs SET
  pages = pages + $pages, requests = requests + $requests,
  rows_upserted = rows_upserted + $rows, rows_quarantined = rows_quarantined + $quarantined
WHERE run_id = $run_id;
