SELECT count(*) AS turns FROM gap_topic_members WHERE project_id = $project;
