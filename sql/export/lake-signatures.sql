-- Signatures of one declared lake table (src/sync/pipeline/lake-table.ts): one row per file the layout
-- makes (per project and day, per project, or one), with its row count and an order-independent
-- hash of every row (sum, not xor, so duplicates count). The export rewrites a file when its
-- signature differs from the manifest's. One scan of the table; no parameters.
-- <select> is the table's lake SELECT (sql/lake/*.sql), <project> and <day> the layout's
-- partition expressions (NULL where the layout has no such level).
SELECT {{project}}                                            AS project_id,
       {{day}}                                                AS day,
       count(*)                                               AS rows,
       CAST(coalesce(sum(hash(lake_rows)), 0) AS VARCHAR)     AS content_hash
FROM ({{select}}
) AS lake_rows
GROUP BY ALL;
