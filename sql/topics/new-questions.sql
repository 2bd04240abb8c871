-- Incremental step: the new turns' questions no topic holds yet, most asked first, at most $cap,
-- numbered (k) so they are read in batches.
CREATE OR REPLACE TEMP TABLE gap_newq AS
SELECT row_number() OVER (ORDER BY n DESC, question) AS k, *
FROM (
  SELECT question, CAST(qhash AS VARCHAR) AS qhash, count(*) AS n, min(query) AS example
  FROM gap_new
  WHERE qhash NOT IN (SELECT qhash FROM gap_topic_questions WHERE project_id = $project)
  GROUP BY question, qhash
  ORDER BY n DESC, question
  LIMIT $cap
);
