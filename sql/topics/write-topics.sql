-- A topic's row from its members: counts, first and last asked, the last 7 days against the 7
-- before ($week, $prev_week), examples, starting pages and the sources cited when it failed.
-- One aggregate per statement, by cluster number (not text), so each fits the writer's memory.
CREATE OR REPLACE TEMP TABLE gap_m AS
SELECT g.id, g.occurred_at, g.page_path, a.cluster FROM gap_turns g JOIN topic_keys a USING (qhash);

CREATE OR REPLACE TEMP TABLE gap_agg AS
SELECT cluster, count(*) AS turns, min(occurred_at) AS first_asked_at, max(occurred_at) AS last_asked_at,
       count(*) FILTER (WHERE occurred_at >= $week) AS turns_last_7d,
       count(*) FILTER (WHERE occurred_at >= $prev_week AND occurred_at < $week) AS turns_prev_7d
FROM gap_m GROUP BY cluster;

CREATE OR REPLACE TEMP TABLE gap_convs AS
SELECT cluster, count(*) AS conversations FROM (SELECT DISTINCT cluster, id FROM gap_m) GROUP BY cluster;

CREATE OR REPLACE TEMP TABLE gap_ex AS
SELECT cluster, list(example ORDER BY n DESC, question)[1:3] AS examples
FROM (SELECT cluster, example, n, question, row_number() OVER (PARTITION BY cluster ORDER BY n DESC, question) AS k FROM topic_assign)
WHERE k <= 3
GROUP BY cluster;

-- Pages and sources: top-pages.sql over gap_mk; then insert-topics.sql.
CREATE OR REPLACE TEMP VIEW gap_mk AS
SELECT cluster AS topic_key, id, occurred_at, page_path FROM gap_m
