-- Whether any per-page export (views, feedback by page, searches) was loaded for the report's scope:
-- without one, the "pages to improve" section says which pipelines to run instead of an empty table.
SELECT EXISTS (SELECT 1 FROM page_views_daily WHERE CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
    OR EXISTS (SELECT 1 FROM feedback_by_page_daily WHERE CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
    OR EXISTS (SELECT 1 FROM searches_daily WHERE CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR)) AS loaded;
