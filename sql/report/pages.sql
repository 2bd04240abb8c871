-- Starting pages whose visitors ask the most unanswered questions in the period
-- (daily_unanswered_by_page), with the page's title from the latest static export when one holds it
-- (latest_site_pages, matched with page_key like unanswered_by_page_title).
WITH pages AS (
  SELECT project_id, page_path,
         sum(turns)      AS turns,
         sum(unanswered) AS unanswered
  FROM daily_unanswered_by_page
  WHERE day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
    AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
  GROUP BY project_id, page_path
  HAVING sum(unanswered) > 0
),
titles AS (
  SELECT path, min(title) AS title FROM latest_site_pages GROUP BY path
)
SELECT p.project_id,
       p.page_path,
       t.title,
       CAST(p.turns AS DOUBLE)       AS turns,
       CAST(p.unanswered AS DOUBLE)  AS unanswered
FROM pages p
LEFT JOIN titles t ON p.page_path <> '(unknown)' AND t.path = page_key(p.page_path)
ORDER BY p.unanswered DESC, p.turns DESC, p.page_path
LIMIT $limit;
