-- Full step: the period's distinct questions counted by hash from gap_turns (no text: one grouping of
-- a million turns by their text, with an example each, was the full step's highest point at 1M
-- nearly distinct turns; docs/performance.md, gap topics, sixth round), and the cut of the $cap most
-- asked (most asked first, ties by text): the $cap'th largest count t, and how many are asked more
-- than t times (above). Read by the step and bound into questions-pick.sql as values.
-- No turns or a cap of 0: t is NULL and nothing is held.
CREATE OR REPLACE TEMP TABLE gap_hn AS
SELECT qhash, count(*) AS n FROM gap_turns GROUP BY qhash;

CREATE OR REPLACE TEMP TABLE gap_hn_cut AS
SELECT t, (SELECT count(*) FROM gap_hn WHERE n > t) AS above
FROM (SELECT min(n) AS t FROM (SELECT n FROM gap_hn ORDER BY n DESC LIMIT $cap));
