-- One row per (project_id, UTC day) of one partitioned table of the read surface, with a signature
-- of its content: a publish rewrites a segment when a day's signature differs from the previous
-- catalog's. The placeholders (double braces) are filled from the table's lake declaration
-- (src/sync/publish/segment-signatures.ts): the table (quoted), the day (the UTC day of its instant
-- column, or its date column), the range (the time column within [$from, $to); NULL: unbounded, so
-- the publish recomputes only the days a run touched) and the signature: the row count and the
-- maxima of the declared `versions` columns (which move whenever a row changes), or without them
-- the row count and an order-independent hash of every row (sum, not xor, so duplicates count).
SELECT project_id,
       strftime({{day}}, '%Y-%m-%d') AS day,
       CAST(count(*) AS BIGINT)      AS rows,
       {{signature}}                 AS signature
FROM {{table}} AS t
WHERE {{range}}
GROUP BY ALL
ORDER BY 1, 2;
