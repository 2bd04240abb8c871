-- One row per (project_id, UTC day of occurred_at) present in conversations or sources, with a
-- signature of its content: the export rewrites a partition when its signature differs from the
-- one in the lake manifest. One scan of each table. $from / $to (NULL: unbounded) limit it to the
-- occurred_at range [$from, $to) (the read surface recomputes only the days a run touched).
--   turns:   row count, max(updated_at) (moves when a value of a turn changes) and max(last_seen_at)
--            (moves on every re-read without touching updated_at; it is an exported column too).
--   sources: row count and an order-independent content hash (sum, not xor, so duplicates count):
--            a re-read turn's sources are replaced without moving the turn's updated_at.
WITH turns AS (
  SELECT project_id,
         CAST(timezone('UTC', occurred_at) AS DATE) AS day,
         count(*)                                   AS rows,
         max(updated_at)                            AS max_updated_at,
         max(last_seen_at)                          AS max_last_seen_at
  FROM conversations
  WHERE occurred_at >= coalesce(CAST($from AS TIMESTAMPTZ), '-infinity'::TIMESTAMPTZ)
    AND occurred_at <  coalesce(CAST($to AS TIMESTAMPTZ), 'infinity'::TIMESTAMPTZ)
  GROUP BY ALL
), cited AS (
  SELECT project_id,
         CAST(timezone('UTC', occurred_at) AS DATE)                          AS day,
         count(*)                                                            AS source_rows,
         sum(hash(conversation_id, occurred_at, position, title, url))      AS source_hash
  FROM sources
  WHERE occurred_at >= coalesce(CAST($from AS TIMESTAMPTZ), '-infinity'::TIMESTAMPTZ)
    AND occurred_at <  coalesce(CAST($to AS TIMESTAMPTZ), 'infinity'::TIMESTAMPTZ)
  GROUP BY ALL
)
SELECT
  coalesce(t.project_id, c.project_id)                                       AS project_id,
  strftime(coalesce(t.day, c.day), '%Y-%m-%d')                              AS day,
  CAST(coalesce(t.rows, 0) AS BIGINT)                                        AS rows,
  CAST(coalesce(c.source_rows, 0) AS BIGINT)                                 AS source_rows,
  strftime(timezone('UTC', t.max_updated_at), '%Y-%m-%dT%H:%M:%S.%fZ')      AS max_updated_at,
  concat_ws('/',
    coalesce(t.rows, 0),
    coalesce(CAST(epoch_us(t.max_updated_at) AS VARCHAR), '-'),
    coalesce(CAST(epoch_us(t.max_last_seen_at) AS VARCHAR), '-'),
    coalesce(c.source_rows, 0),
    coalesce(CAST(c.source_hash AS VARCHAR), '-'))                           AS signature
FROM turns t
FULL OUTER JOIN cited c ON t.project_id = c.project_id AND t.day = c.day
ORDER BY 1, 2;
