SELECT question, times_asked, strftime(last_asked_at, '%Y-%m-%d %H:%M') AS last_asked_utc FROM top_unanswered_questions
WHERE project_id = $project_id ORDER BY times_asked DESC, last_asked_at DESC LIMIT 10;
