-- The warehouse's own macros (e.g. page_key, which views call): re-created in the read catalog so
-- its views bind as they do in the warehouse.
SELECT function_name, function_type, parameters, macro_definition
FROM duckdb_functions()
WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
  AND function_type IN ('macro', 'table_macro')
ORDER BY function_name;
