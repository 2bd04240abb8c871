-- Incremental step: the new turns' questions no topic holds yet, most asked first (ties by text), at
-- most $cap, numbered (k) so they are read in batches.
-- Within the step pool (docs/performance.md, gap topics): one grouping of every new turn by its text
-- with its example, ranked by a top-N (at 1M distinct turns 850,000 groups, 170,000 kept with their
-- text) did not fit 64 MiB. Here the counts are taken by hash alone (no text per group), the cut is
-- found on those narrow rows, and only the chosen questions are grouped with their text.
CREATE OR REPLACE TEMP TABLE gap_qn_n AS
SELECT qhash, count(*) AS n
FROM gap_new
WHERE qhash NOT IN (SELECT qhash FROM gap_topic_questions WHERE project_id = $project)
GROUP BY qhash;
-- The $cap'th largest count (t): every question asked more than t times is in; of those asked exactly
-- t times the first by text fill the rest. Each of those is t rows of gap_new, so the first
-- (cap - above) * t of their rows by text are all the rows of exactly those questions. No rows or a
-- cap of 0: t is NULL and nothing is chosen.
CREATE OR REPLACE TEMP TABLE gap_qn_pick AS
WITH cut AS (
  SELECT t, (SELECT count(*) FROM gap_qn_n WHERE n > t) AS above
  FROM (SELECT min(n) AS t FROM (SELECT n FROM gap_qn_n ORDER BY n DESC LIMIT $cap))
)
SELECT qhash FROM gap_qn_n WHERE n > (SELECT t FROM cut)
UNION
SELECT qhash FROM (
  SELECT g.question, g.qhash
  FROM gap_new g SEMI JOIN gap_qn_n c ON c.qhash = g.qhash AND c.n = (SELECT t FROM cut)
  ORDER BY g.question
  LIMIT (SELECT coalesce(($cap - above) * t, 0) FROM cut)
);
CREATE OR REPLACE TEMP TABLE gap_newq AS
SELECT row_number() OVER (ORDER BY n DESC, question) AS k, *
FROM (
  SELECT g.question, CAST(g.qhash AS VARCHAR) AS qhash, count(*) AS n, min(g.query) AS example
  FROM gap_new g SEMI JOIN gap_qn_pick p ON p.qhash = g.qhash
  GROUP BY g.question, g.qhash
);
DROP TABLE gap_qn_n;
DROP TABLE gap_qn_pick;
