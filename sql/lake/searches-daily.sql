-- The lake columns of searches_daily, in order (docs/lake.md).
SELECT project_id, day, search_query, hits, ctr, top_clicked_page, last_searched_at, rank, read_at
FROM searches_daily
