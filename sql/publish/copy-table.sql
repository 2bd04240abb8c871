-- One whole warehouse table of the read surface (a table not partitioned by day: state, coverage,
-- the *_daily tables, gap topics), written by DuckDB's Parquet writer to $file (a temporary name;
-- the caller renames it to its unique final name). No ORDER BY: the rows keep the table's order.
-- $row_group_rows bounds the writer's memory (src/sync/publish/surface-tables.ts).
COPY (SELECT * FROM {{table}}) TO $file (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE $row_group_rows);
