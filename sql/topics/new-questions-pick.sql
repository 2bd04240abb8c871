-- The questions new-questions.sql counted and cut, numbered (k) so they are read in batches: every
-- question asked more than $t times, and of those asked exactly $t times the first by text, read as
-- the first $take rows of their turns by text ($take = (cap - above) * t: each of them is t rows of
-- gap_new, so those rows are all the rows of exactly those questions). $t NULL: none.
CREATE OR REPLACE TEMP TABLE gap_qn_pick AS
SELECT qhash FROM gap_qn_n WHERE n > $t
UNION
SELECT qhash FROM (
  SELECT g.question, g.qhash
  FROM gap_new g SEMI JOIN gap_qn_n c ON c.qhash = g.qhash AND c.n = $t
  ORDER BY g.question
  LIMIT $take
);
CREATE OR REPLACE TEMP TABLE gap_newq AS
SELECT row_number() OVER (ORDER BY n DESC, question) AS k, *
FROM (
  SELECT g.question, CAST(g.qhash AS VARCHAR) AS qhash, count(*) AS n, min(g.query) AS example
  FROM gap_new g SEMI JOIN gap_qn_pick p ON p.qhash = g.qhash
  GROUP BY g.question, g.qhash
);
-- What is read of gap_new from here on (refresh-topics.sql: the members of the topics that hold its
-- questions) is the keys and page of the turns whose question a topic holds, already or placed now:
-- the text and the turns of the questions over the cap are dropped, not kept through the placement.
CREATE OR REPLACE TEMP TABLE gap_new AS
SELECT id, occurred_at, page_path, qhash FROM gap_new
WHERE qhash IN (SELECT qhash FROM gap_qn_pick) OR qhash IN (SELECT qhash FROM gap_topic_questions WHERE project_id = $project);
DROP TABLE gap_qn_n;
DROP TABLE gap_qn_pick;
