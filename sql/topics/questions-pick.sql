-- Full step: the questions questions.sql counted and cut, held in gap_held (question, qhash, n,
-- example: one way it was asked), and gap_turns narrowed to their turns. Every question asked more
-- than $t times, and of those asked exactly $t times the first by normalized text: the first $take
-- of their turns by text ($take = (cap - above) * t: each is t turns, so those turns are all the
-- turns of exactly those questions). $t NULL: none. The same questions, counts and examples as one
-- grouping of the period by text ranked by (count desc, text) with a limit of the cap.
-- gap_turns keeps the held questions' turns only: overlap.sql, previous.sql, write-members.sql and
-- write-topics.sql join it to them, and the tail reads conversations (new-turns.sql).
CREATE OR REPLACE TEMP TABLE gap_hn_pick AS
SELECT qhash FROM gap_hn WHERE n > $t
UNION
SELECT qhash FROM (
  SELECT question, hash(question) AS qhash
  FROM (
    SELECT question_text(query) AS question
    FROM conversations
    WHERE project_id = $project AND resolution_status = 'unanswered' AND occurred_at >= $from AND occurred_at < $to
  )
  WHERE question <> '' AND hash(question) IN (SELECT qhash FROM gap_hn WHERE n = $t)
  ORDER BY question
  LIMIT $take
);

CREATE OR REPLACE TEMP TABLE gap_turns AS
SELECT g.* FROM gap_turns g SEMI JOIN gap_hn_pick p ON p.qhash = g.qhash;

CREATE OR REPLACE TEMP TABLE gap_held AS
SELECT question, hash(question) AS qhash, count(*) AS n, min(query) AS example
FROM (
  SELECT query, question_text(query) AS question
  FROM conversations
  WHERE project_id = $project AND resolution_status = 'unanswered' AND occurred_at >= $from AND occurred_at < $to
)
WHERE question <> '' AND hash(question) IN (SELECT qhash FROM gap_hn_pick)
GROUP BY question;

DROP TABLE gap_hn;
DROP TABLE gap_hn_pick;
