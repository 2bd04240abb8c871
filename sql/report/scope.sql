-- The projects the warehouse knows (synced: freshness; or with turns) and the UTC day of each one's
-- newest turn (NULL when none). Metadata for the empty states, not a reported number.
SELECT project_id, strftime(max(day), '%Y-%m-%d') AS newest_day
FROM (
  SELECT project_id, CAST(NULL AS DATE) AS day FROM freshness
  UNION ALL
  SELECT project_id, CAST(make_timestamp(epoch_us(max(occurred_at))) AS DATE) FROM conversations GROUP BY project_id
)
GROUP BY project_id
ORDER BY project_id;
