SELECT category, turns, unanswered, unanswered_rate FROM category_breakdown
WHERE project_id = $project_id ORDER BY turns DESC;
