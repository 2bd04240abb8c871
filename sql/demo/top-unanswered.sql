SELECT question, times_asked, last_asked_at FROM top_unanswered_questions
WHERE project_id = $project_id ORDER BY times_asked DESC, last_asked_at DESC LIMIT 10;
