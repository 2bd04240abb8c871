-- The projects a warehouse knows: any with turns or a recorded run. `export-parquet --project X`
-- must name one of them (exit 2 otherwise, naming them).
SELECT project_id FROM conversations
UNION
SELECT project_id FROM sync_runs
ORDER BY 1;
