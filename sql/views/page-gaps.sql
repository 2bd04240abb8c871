-- Documentation gaps per page: what every analytics export says about one page, over all days read.
-- One row per (project_id, path) that appears in any source. Paths are joined as the API names
-- them, trailing slashes dropped ('/guides/sso/' = '/guides/sso'); assistant turns count by the
-- page the conversation started on (conversations.page_path; turns without a page are left out).
-- - views_*: page views (page_views_daily); visitors_*: the sum of each day's visitors
--   (page_visitors_daily; a reader on two days counts twice; total is deduplicated per day across
--   human and AI, so it does not equal human + ai).
-- - thumbs_up/thumbs_down/code_reports: feedback_by_page_daily; feedback_truncated: some day of it
--   was incomplete (see docs/pipelines.md); open_feedback: feedback entries still pending or in
--   progress, feedback_comments: entries with a comment (table feedback).
-- - assistant_turns, unanswered_turns, unanswered_rate: conversations starting on the page.
-- - search_hits: hits of the search terms whose most clicked page (over all days read) is this page;
--   low_ctr_searches: up to five of those terms with a click-through rate under 0.2, by hits
--   (searches_daily only holds the top terms of each day).
-- - period_days: the project's days from the first to the last day any of these sources has
--   loaded (coverage_days); views_days_loaded, visitors_days_loaded, thumbs_days_loaded,
--   turns_days_loaded: how many of them each source has loaded. Sums over sources with different
--   counts compare different periods.
CREATE OR REPLACE VIEW page_gaps AS
-- Views, visitors, thumbs and assistant turns are page_gaps_daily summed over its days (one
-- definition of each measure and of the path); the rest only makes sense over a range.
WITH daily AS (
  SELECT project_id, path,
         sum(views_human) AS views_human, sum(views_ai) AS views_ai, sum(views_total) AS views_total,
         sum(visitors_human) AS visitors_human, sum(visitors_ai) AS visitors_ai, sum(visitors_total) AS visitors_total,
         sum(thumbs_up) AS thumbs_up, sum(thumbs_down) AS thumbs_down, sum(code_reports) AS code_reports,
         sum(assistant_turns) AS assistant_turns, sum(unanswered_turns) AS unanswered_turns
  FROM page_gaps_daily GROUP BY ALL
), truncated AS (
  SELECT project_id, regexp_replace(path, '(.)/+$', '\1') AS path, bool_or(truncated) AS feedback_truncated
  FROM feedback_by_page_daily GROUP BY ALL
), entries AS (
  SELECT project_id, regexp_replace(path, '(.)/+$', '\1') AS path,
         count(*) FILTER (WHERE status IN ('pending', 'in_progress')) AS open_feedback,
         count(*) FILTER (WHERE comment IS NOT NULL AND comment <> '') AS feedback_comments
  FROM feedback GROUP BY ALL
), terms AS (
  SELECT project_id, search_query, sum(hits) AS hits,
         sum(hits * ctr) / nullif(sum(hits), 0) AS ctr,
         arg_max(top_clicked_page, (hits * ctr, top_clicked_page)) FILTER (WHERE top_clicked_page IS NOT NULL) AS page
  FROM searches_daily GROUP BY ALL
), searches AS (
  SELECT project_id, regexp_replace(page, '(.)/+$', '\1') AS path, sum(hits) AS search_hits,
         coalesce(list(search_query ORDER BY hits DESC, search_query) FILTER (WHERE ctr < 0.2), [])[1:5] AS low_ctr_searches
  FROM terms WHERE page IS NOT NULL GROUP BY ALL
), loaded_days AS (
  SELECT project_id, day, pipeline FROM coverage_days
  WHERE state <> 'missing' AND pipeline IN ('page_views', 'page_visitors', 'feedback_by_page', 'assistant_conversations')
), loaded AS (
  SELECT project_id,
         date_diff('day', min(day), max(day)) + 1 AS period_days,
         count(*) FILTER (WHERE pipeline = 'page_views')              AS views_days_loaded,
         count(*) FILTER (WHERE pipeline = 'page_visitors')           AS visitors_days_loaded,
         count(*) FILTER (WHERE pipeline = 'feedback_by_page')        AS thumbs_days_loaded,
         count(*) FILTER (WHERE pipeline = 'assistant_conversations') AS turns_days_loaded
  FROM loaded_days GROUP BY ALL
)
SELECT
  project_id, path,
  coalesce(views_human, 0)    AS views_human,
  coalesce(views_ai, 0)       AS views_ai,
  coalesce(views_total, 0)    AS views_total,
  coalesce(visitors_human, 0) AS visitors_human,
  coalesce(visitors_ai, 0)    AS visitors_ai,
  coalesce(visitors_total, 0) AS visitors_total,
  coalesce(thumbs_up, 0)      AS thumbs_up,
  coalesce(thumbs_down, 0)    AS thumbs_down,
  coalesce(code_reports, 0)   AS code_reports,
  coalesce(feedback_truncated, false) AS feedback_truncated,
  coalesce(open_feedback, 0)  AS open_feedback,
  coalesce(feedback_comments, 0) AS feedback_comments,
  coalesce(assistant_turns, 0)   AS assistant_turns,
  coalesce(unanswered_turns, 0)  AS unanswered_turns,
  CASE WHEN assistant_turns > 0 THEN round(unanswered_turns / assistant_turns, 4) END AS unanswered_rate,
  coalesce(search_hits, 0)    AS search_hits,
  coalesce(low_ctr_searches, []) AS low_ctr_searches,
  coalesce(period_days, 0)          AS period_days,
  coalesce(views_days_loaded, 0)    AS views_days_loaded,
  coalesce(visitors_days_loaded, 0) AS visitors_days_loaded,
  coalesce(thumbs_days_loaded, 0)   AS thumbs_days_loaded,
  coalesce(turns_days_loaded, 0)    AS turns_days_loaded
FROM daily
FULL JOIN truncated USING (project_id, path)
FULL JOIN entries   USING (project_id, path)
FULL JOIN searches  USING (project_id, path)
LEFT JOIN loaded    USING (project_id);
