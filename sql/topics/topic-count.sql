SELECT count(*) AS topics FROM gap_topics WHERE project_id = $project;
