-- Whether the topic step re-clusters the whole period (full) or places only new questions: the last
-- full re-clustering (when, on how many questions) and the questions placed since.
WITH last_full AS (
  SELECT max(computed_at) AS at, arg_max(questions, computed_at) AS questions
  FROM gap_topic_runs WHERE project_id = $project AND mode = 'full'
)
SELECT CAST(l.at AS VARCHAR) AS last_full_at, strftime(l.at, '%Y-%m-%d') AS last_full_day, l.questions AS last_full_questions,
       (SELECT count(*) FROM gap_topic_questions q WHERE q.project_id = $project) AS known_questions,
       (SELECT count(*) FROM gap_topic_questions q WHERE q.project_id = $project AND q.assigned_at > l.at) AS placed_since
FROM last_full l;
