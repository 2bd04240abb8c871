-- The merge's "one read per key" (src/sync/load/one-read-per-key.ts fills it from the pipeline's
-- declaration): of the staged rows that share the declared key, one is kept, by the declared
-- tie-break over (page sequence, position in the page); the others are deleted. {key}: the key's
-- quoted columns; {order}: the tie-break; {where}: which rows compete (records DuckDB refused go to
-- quarantine, not into this contest).
DELETE FROM stage_all
WHERE rowid IN (
  SELECT rowid FROM (
    SELECT rowid, row_number() OVER (PARTITION BY {key} ORDER BY {order}) AS rn
    FROM stage_all WHERE {where})
  WHERE rn > 1);
