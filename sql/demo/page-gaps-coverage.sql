-- What the demo's "pages to improve" list rests on: its period and the days each source is loaded
-- (page_gaps sums sources over the days each one is loaded, which may differ).
SELECT max(period_days) AS period_days, max(turns_days_loaded) AS turns, max(thumbs_days_loaded) AS thumbs,
       max(views_days_loaded) AS views, max(visitors_days_loaded) AS visitors
FROM page_gaps
WHERE project_id = $project_id;
