-- What re-reads found, by purpose and by the age of the data when it was re-read: the share of
-- rows that were new (late arrivals) or changed (category/status updated later). Last 7 days.
SELECT project_id, pipeline, purpose,
       CASE WHEN age_h < 6 THEN '<6h' WHEN age_h < 24 THEN '6-24h' ELSE '>=24h' END AS age,
       count(*) AS reads, sum(rows) AS rows, sum(new_rows) AS new_rows, sum(changed_rows) AS changed_rows
FROM (SELECT *, epoch(completed_at - window_to) / 3600 AS age_h FROM sync_windows
      WHERE purpose IN ('recheck', 'settle') AND completed_at >= (SELECT max(completed_at) FROM sync_windows) - INTERVAL 7 DAY)
GROUP BY ALL
ORDER BY project_id, pipeline, purpose, age;
