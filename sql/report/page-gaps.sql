-- Pages to improve in the period: page_gaps_daily summed over the period's days, with the search
-- terms of the period whose clicks go mostly to the page and whose click-through rate is under 0.2
-- (as page_gaps does over all days). A page is listed when readers signalled a gap there: an
-- unanswered assistant turn, a thumbs down or a low click-through search.
WITH days AS (
  SELECT project_id, path,
         sum(views_total) AS views, sum(views_ai) AS views_ai, sum(visitors_total) AS visitors,
         sum(thumbs_up) AS thumbs_up, sum(thumbs_down) AS thumbs_down,
         sum(assistant_turns) AS turns, sum(unanswered_turns) AS unanswered
  FROM page_gaps_daily
  WHERE day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
    AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
  GROUP BY ALL
), terms AS (
  SELECT project_id, search_query, sum(hits) AS hits, sum(hits * ctr) / nullif(sum(hits), 0) AS ctr,
         arg_max(top_clicked_page, hits * ctr) FILTER (WHERE top_clicked_page IS NOT NULL) AS page
  FROM searches_daily
  WHERE day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
    AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
  GROUP BY ALL
), searches AS (
  SELECT project_id, regexp_replace(page, '(.)/+$', '\1') AS path,
         list(search_query ORDER BY hits DESC, search_query)[1:5] AS low_ctr_searches, sum(hits) AS low_ctr_hits
  FROM terms WHERE page IS NOT NULL AND ctr < 0.2 GROUP BY ALL
)
SELECT project_id, path,
       CAST(coalesce(views, 0) AS DOUBLE)       AS views,
       CAST(coalesce(views_ai, 0) AS DOUBLE)    AS views_ai,
       CAST(coalesce(visitors, 0) AS DOUBLE)    AS visitors,
       CAST(coalesce(thumbs_up, 0) AS DOUBLE)   AS thumbs_up,
       CAST(coalesce(thumbs_down, 0) AS DOUBLE) AS thumbs_down,
       CAST(coalesce(turns, 0) AS DOUBLE)       AS turns,
       CAST(coalesce(unanswered, 0) AS DOUBLE)  AS unanswered,
       coalesce(low_ctr_searches, [])           AS low_ctr_searches,
       CAST(coalesce(low_ctr_hits, 0) AS DOUBLE) AS low_ctr_hits
FROM days FULL JOIN searches USING (project_id, path)
WHERE coalesce(unanswered, 0) > 0 OR coalesce(thumbs_down, 0) > 0 OR coalesce(low_ctr_hits, 0) > 0
ORDER BY coalesce(unanswered, 0) DESC, coalesce(thumbs_down, 0) DESC, coalesce(low_ctr_hits, 0) DESC, coalesce(views, 0) DESC, path
LIMIT $limit;
