SELECT strftime(day, '%Y-%m-%d') AS day, turns, unanswered, unanswered_rate FROM daily_unanswered_rate
WHERE project_id = $project_id ORDER BY day DESC LIMIT 7;
