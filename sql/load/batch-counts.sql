-- Per run of the batch: rows to merge (view stage) and records DuckDB refused (view stage_rejects).
SELECT run_id, sum(rows) AS rows, sum(rejected) AS rejected
FROM (
  SELECT run_id, count(*) AS rows, 0 AS rejected FROM stage GROUP BY run_id
  UNION ALL
  SELECT run_id, 0, count(*) FROM stage_rejects GROUP BY run_id
)
GROUP BY run_id;
