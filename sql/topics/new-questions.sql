-- Incremental step: the new turns' questions no topic holds yet, counted by hash, and the cut of
-- the $cap most asked (most asked first, ties by text). Then new-questions-pick.sql numbers them.
-- Within the step pool (docs/performance.md, gap topics): one grouping of every new turn by its text
-- with its example, ranked by a top-N (at 1M distinct turns 850,000 groups, 170,000 kept with their
-- text) did not fit 64 MiB. Here the counts are taken by hash alone (no text per group), the cut is
-- found on those narrow rows, and only the chosen questions are grouped with their text.
CREATE OR REPLACE TEMP TABLE gap_qn_n AS
SELECT qhash, count(*) AS n
FROM gap_new
WHERE qhash NOT IN (SELECT qhash FROM gap_topic_questions WHERE project_id = $project)
GROUP BY qhash;
-- The $cap'th largest count (t) and how many questions are asked more than t times (above): every
-- one of those is in; of those asked exactly t times the first cap - above by text fill the rest.
-- Read by the caller and bound into new-questions-pick.sql as values (no LIMIT of a subquery).
-- No rows or a cap of 0: t is NULL and nothing is chosen.
CREATE OR REPLACE TEMP TABLE gap_qn_cut AS
SELECT t, (SELECT count(*) FROM gap_qn_n WHERE n > t) AS above
FROM (SELECT min(n) AS t FROM (SELECT n FROM gap_qn_n ORDER BY n DESC LIMIT $cap));
