-- Stage a batch of landed GET /searches pages: one local day per window, its top terms in the order
-- the API ranks them (hits descending: rank 1 is the most searched), and per window the day's
-- total searches and whether more terms existed than were read (`batch_days`). A term served twice
-- in a day's answer (a repeated record) is kept once, where it came first: the merge applies the
-- pipeline's key and tie-break ('first') to stage_all (src/sync/load/one-read-per-key.ts); its rank is
-- computed here, before, so a repeat does not move the terms after it.
CREATE OR REPLACE TEMP TABLE stage_all AS
SELECT l.project_id, l.run_id, l.window_id, l.window_from, l.seq, l.ord,
       CAST(timezone(coalesce(p.timezone, 'UTC'), l.window_from) AS DATE) AS day,
       r.searchQuery                                     AS search_query,
       CAST(r.hits AS BIGINT)                            AS hits,
       r.ctr                                             AS ctr,
       r.topClickedPage                                  AS top_clicked_page,
       TRY_CAST(r.lastSearchedAt AS TIMESTAMPTZ)         AS last_searched_at,
       -- the API's position: a page holds 100 terms (the pipeline's limit) and `ord` is the position in
       -- its page as served, so a quarantined term leaves its rank empty instead of moving the others up
       CAST(100 * (dense_rank() OVER (PARTITION BY l.project_id, l.window_id ORDER BY l.seq) - 1) + l.ord AS INTEGER) AS rank
FROM landed l LEFT JOIN projects p ON p.project_id = l.project_id;

CREATE OR REPLACE TEMP TABLE batch_days AS
SELECT l.project_id, l.window_id, CAST(timezone(coalesce(any_value(p.timezone), 'UTC'), any_value(l.window_from)) AS DATE) AS day,
       CAST(any_value(l.page.totalSearches) AS BIGINT) AS total_searches,
       bool_or(l.truncated)                            AS truncated
FROM landed_pages l LEFT JOIN projects p ON p.project_id = l.project_id
GROUP BY l.project_id, l.window_id;

CREATE OR REPLACE TEMP VIEW stage AS SELECT * EXCLUDE (seq, ord) FROM stage_all;
CREATE OR REPLACE TEMP VIEW stage_rejects AS
SELECT NULL::VARCHAR AS project_id, NULL::VARCHAR AS run_id, NULL::VARCHAR AS error, NULL::VARCHAR AS raw WHERE false;
