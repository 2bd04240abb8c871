SELECT count(DISTINCT qhash) AS questions, count(*) AS turns FROM gap_turns;
