SELECT path, unanswered_turns, assistant_turns, thumbs_down, views_total AS views, visitors_total AS visitors
FROM page_gaps
WHERE project_id = $project_id AND (unanswered_turns > 0 OR thumbs_down > 0)
ORDER BY unanswered_turns DESC, thumbs_down DESC, views_total DESC, path LIMIT 10;
