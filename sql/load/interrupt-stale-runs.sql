-- Only one process writes the warehouse at a time, so a run still 'running' when a new one starts
-- belongs to a process that died (SIGKILL, power loss).
UPDATE sync_runs SET status = 'interrupted', finished_at = CAST($now AS TIMESTAMPTZ),
  error = coalesce(error, 'process ended before the run finished; its last checkpoint was kept')
WHERE status = 'running';
