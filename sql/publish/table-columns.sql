-- The columns of the warehouse's own tables (main schema, not views), in column order, with their
-- exact types: the catalog's Parquet-backed views cast to these, so readers see the warehouse's types.
SELECT c.table_name, c.column_name, c.data_type
FROM duckdb_columns() c
JOIN duckdb_tables() t ON t.table_oid = c.table_oid
WHERE c.database_name = current_database() AND c.schema_name = 'main' AND NOT t.temporary
ORDER BY c.table_name, c.column_index;
