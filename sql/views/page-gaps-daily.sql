-- page_gaps per project-local day, for dashboards that filter by date: views, visitors, thumbs and
-- assistant turns of each (project_id, day, path). Feedback entries and search terms are left out
-- (their per-page measures only make sense over a range; see page_gaps). Summed over all days,
-- each column equals the one of page_gaps.
-- views_loaded, visitors_loaded, thumbs_loaded, turns_loaded: whether that source's day is in the
-- warehouse (coverage_days: loaded or settled); a 0 on a day not loaded means "not known", not none.
CREATE OR REPLACE VIEW page_gaps_daily AS
WITH views AS (
  SELECT project_id, day, regexp_replace(path, '(.)/+$', '\1') AS path,
         sum(human) AS views_human, sum(ai) AS views_ai, sum(total) AS views_total
  FROM page_views_daily GROUP BY ALL
), visitors AS (
  SELECT project_id, day, regexp_replace(path, '(.)/+$', '\1') AS path,
         sum(human) AS visitors_human, sum(ai) AS visitors_ai, sum(total) AS visitors_total
  FROM page_visitors_daily GROUP BY ALL
), thumbs AS (
  SELECT project_id, day, regexp_replace(path, '(.)/+$', '\1') AS path,
         sum(thumbs_up) AS thumbs_up, sum(thumbs_down) AS thumbs_down, sum(code) AS code_reports
  FROM feedback_by_page_daily GROUP BY ALL
), turns AS (
  SELECT project_id, day, regexp_replace(page_path, '(.)/+$', '\1') AS path,
         count(*) AS assistant_turns,
         count(*) FILTER (WHERE resolution_status = 'unanswered') AS unanswered_turns
  FROM conversation_days WHERE page_path IS NOT NULL GROUP BY ALL
), loaded AS (
  SELECT project_id, day,
         bool_or(pipeline = 'page_views' AND state <> 'missing')              AS views_loaded,
         bool_or(pipeline = 'page_visitors' AND state <> 'missing')           AS visitors_loaded,
         bool_or(pipeline = 'feedback_by_page' AND state <> 'missing')        AS thumbs_loaded,
         bool_or(pipeline = 'assistant_conversations' AND state <> 'missing') AS turns_loaded
  FROM coverage_days GROUP BY ALL
)
SELECT
  project_id, day, path,
  coalesce(views_human, 0)    AS views_human,
  coalesce(views_ai, 0)       AS views_ai,
  coalesce(views_total, 0)    AS views_total,
  coalesce(visitors_human, 0) AS visitors_human,
  coalesce(visitors_ai, 0)    AS visitors_ai,
  coalesce(visitors_total, 0) AS visitors_total,
  coalesce(thumbs_up, 0)      AS thumbs_up,
  coalesce(thumbs_down, 0)    AS thumbs_down,
  coalesce(code_reports, 0)   AS code_reports,
  coalesce(assistant_turns, 0)  AS assistant_turns,
  coalesce(unanswered_turns, 0) AS unanswered_turns,
  CASE WHEN assistant_turns > 0 THEN round(unanswered_turns / assistant_turns, 4) END AS unanswered_rate,
  coalesce(views_loaded, false)    AS views_loaded,
  coalesce(visitors_loaded, false) AS visitors_loaded,
  coalesce(thumbs_loaded, false)   AS thumbs_loaded,
  coalesce(turns_loaded, false)    AS turns_loaded
FROM views
FULL JOIN visitors USING (project_id, day, path)
FULL JOIN thumbs   USING (project_id, day, path)
FULL JOIN turns    USING (project_id, day, path)
LEFT JOIN loaded   USING (project_id, day);
