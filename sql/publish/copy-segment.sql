-- One segment of a Parquet-backed table of the read surface: the rows of one project in the UTC
-- instant range [$from, $to) (a day, or a closed month), written by DuckDB's Parquet writer to
-- $file (a temporary name; the caller renames it to its unique final name). Every column as the
-- warehouse has it (the catalog's view casts back to the exact types). {{table}}, {{project}} and
-- {{time}} are identifiers from the read surface's table list (src/sync/publish/surface-tables.ts),
-- quoted by the caller; values are bound parameters. No ORDER BY: the rows keep the table's order
-- (merged window by window, so clustered by time already), and a sort of a month under the
-- writer's memory_limit would spill to disk and cost the publish time and memory.
-- $row_group_rows bounds the writer's memory: DuckDB's Parquet writer holds a whole row group
-- (uncompressed) before it writes it, so its default (122,880 rows) made a large day's publish
-- the full sync's peak (src/sync/publish/surface-tables.ts: SEGMENT_ROW_GROUP_ROWS).
COPY (
  SELECT *
  FROM {{table}}
  WHERE {{project}} = $project_id
    AND {{time}} >= CAST($from AS TIMESTAMPTZ)
    AND {{time}} <  CAST($to AS TIMESTAMPTZ)
) TO $file (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE $row_group_rows);
