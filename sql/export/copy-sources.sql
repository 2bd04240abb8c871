-- One partition of the lake's sources: the cited sources of the turns of one project on one UTC
-- day [$from, $to) (same key as the turns, rewritten together). See copy-conversations.sql.
COPY (
  SELECT project_id, conversation_id, occurred_at, position, title, url
  FROM sources
  WHERE project_id = $project_id
    AND occurred_at >= CAST($from AS TIMESTAMPTZ)
    AND occurred_at <  CAST($to AS TIMESTAMPTZ)
  ORDER BY occurred_at, conversation_id, position
) TO $file (FORMAT parquet, COMPRESSION zstd);
