-- One partition of a table written by DuckDB's Parquet writer to $file (a temporary or staging
-- name: the caller commits or uploads it). The ONE Parquet COPY of docs-etl (src/parquet/
-- partition-copy.ts), used by the lake export (a declared table's lake SELECT, sorted, with
-- Iceberg field ids) and by the read surface's segments (the warehouse table as it is, unsorted,
-- in bounded row groups). The placeholders (double braces) are filled by the caller: source is a
-- SELECT; filter picks the partition's rows with bound parameters ($project_id, $from/$to or
-- $date); order is empty or an ORDER BY; options adds COPY options (FIELD_IDS, ROW_GROUP_SIZE). TIMESTAMPTZ becomes a
-- Parquet INT64 timestamp (micros, isAdjustedToUTC); JSON arrives as UTF-8 strings.
COPY (
  SELECT * FROM ({{source}}
  ) AS partition_rows
  WHERE {{filter}}{{order}}
) TO $file (FORMAT parquet, COMPRESSION zstd{{options}});
