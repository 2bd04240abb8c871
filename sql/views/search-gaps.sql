-- Searches that do not find their page: each search term over all days read, with its hits and its
-- click-through rate weighted by hits, kept when that rate is under 0.2 (the threshold page_gaps
-- uses). top_clicked_page is the page its clicks went to most (NULL: nobody clicked a result).
-- searches_daily holds the top terms of each day only, so a term's hits count the days it ranked.
CREATE OR REPLACE VIEW search_gaps AS
SELECT
  project_id,
  search_query,
  sum(hits)                                                        AS hits,
  round(sum(hits * ctr) / nullif(sum(hits), 0), 4)                 AS ctr,
  arg_max(top_clicked_page, (hits * ctr, top_clicked_page)) FILTER (WHERE top_clicked_page IS NOT NULL) AS top_clicked_page,
  count(*)                                                         AS days,
  min(day)                                                         AS first_day,
  max(day)                                                         AS last_day,
  max(last_searched_at)                                            AS last_searched_at
FROM searches_daily
GROUP BY ALL
HAVING sum(hits) > 0 AND sum(hits * ctr) / sum(hits) < 0.2;
