-- One partition of the lake's conversations: the turns of one project on one UTC day
-- [$from, $to), written by DuckDB's Parquet writer to $file (a temporary name; the caller renames
-- it into place). Columns are listed so the lake's schema is a contract, not whatever the table
-- has: project_id stays inside the file (self-describing; Hive readers also get it from the
-- path), the day does not (it is occurred_at's UTC date). TIMESTAMPTZ becomes a Parquet INT64
-- timestamp (micros, isAdjustedToUTC); extra (JSON) becomes a UTF-8 string.
COPY (
  SELECT project_id, id, occurred_at, query, response, response_type, resolution_status,
         query_category, page_url, page_path, CAST(extra AS VARCHAR) AS extra,
         first_seen_at, last_seen_at, updated_at
  FROM conversations
  WHERE project_id = $project_id
    AND occurred_at >= CAST($from AS TIMESTAMPTZ)
    AND occurred_at <  CAST($to AS TIMESTAMPTZ)
  ORDER BY occurred_at, id
) TO $file (FORMAT parquet, COMPRESSION zstd);
