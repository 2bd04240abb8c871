-- One file of a declared lake table, written by DuckDB's Parquet writer to $file (a temporary or
-- staging name: the caller publishes it). <select> is the table's lake SELECT (sql/lake/*.sql):
-- its columns are the file's schema. <filter> picks the partition's rows with bound parameters
-- ($project_id, $from/$to or $date); <order> is the declared row order. TIMESTAMPTZ becomes a
-- Parquet INT64 timestamp (micros, isAdjustedToUTC); JSON columns arrive as UTF-8 strings.
-- <options> adds the Iceberg field ids (`, FIELD_IDS {...}`: src/outputs/lake/iceberg/table-schema.ts).
COPY (
  SELECT * FROM ({{select}}
  ) AS lake_rows
  WHERE {{filter}}
  ORDER BY {{order}}
) TO $file (FORMAT parquet, COMPRESSION zstd{{options}});
