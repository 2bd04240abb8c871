SELECT count(DISTINCT question) AS questions, count(*) AS turns FROM gap_turns WHERE question <> '';
