-- The projects the warehouse knows (synced: freshness; or with turns), the time zone their days are
-- counted in (projects.timezone; UTC when the project has no row) and the day of each one's newest
-- turn in that zone (NULL when none). Metadata for the period and the empty states, not a reported number.
SELECT k.project_id,
       coalesce(p.timezone, 'UTC') AS timezone,
       strftime(CAST(timezone(coalesce(p.timezone, 'UTC'), max(k.newest)) AS DATE), '%Y-%m-%d') AS newest_day
FROM (
  SELECT project_id, CAST(NULL AS TIMESTAMPTZ) AS newest FROM freshness
  UNION ALL
  SELECT project_id, max(occurred_at) FROM conversations GROUP BY project_id
) k
LEFT JOIN projects p ON p.project_id = k.project_id
GROUP BY k.project_id, p.timezone
ORDER BY k.project_id;
