-- Signatures of the small, non-partitioned tables: row count and an order-independent hash of
-- every row (these tables are small, so hashing all of them each run is cheap).
SELECT 'sync_runs' AS name, count(*) AS rows,
       concat_ws('/', count(*), coalesce(CAST(sum(hash(sync_runs)) AS VARCHAR), '-')) AS signature
FROM sync_runs
UNION ALL
SELECT 'quarantine', count(*),
       concat_ws('/', count(*), coalesce(CAST(sum(hash(project_id, run_id, received_at, error, CAST(raw AS VARCHAR))) AS VARCHAR), '-'))
FROM quarantine;
