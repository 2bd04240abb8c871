-- Incremental step: every topic's counts again from its members (turns, conversations, first and
-- last asked, the last 7 days against the 7 before), topics with no member left removed, the new
-- topics inserted with their examples, pages and cited sources. An existing topic keeps its label,
-- examples, pages, sources and terms until the next full re-clustering.
INSERT INTO gap_topic_members
SELECT $project, q.topic_id, g.id, g.occurred_at
FROM gap_new g JOIN gap_topic_questions q ON q.project_id = $project AND q.qhash = g.qhash;

CREATE OR REPLACE TEMP TABLE gap_agg AS
SELECT topic_id, count(*) AS turns, count(DISTINCT conversation_id) AS conversations,
       min(occurred_at) AS first_asked_at, max(occurred_at) AS last_asked_at,
       count(*) FILTER (WHERE occurred_at >= $week) AS turns_last_7d,
       count(*) FILTER (WHERE occurred_at >= $prev_week AND occurred_at < $week) AS turns_prev_7d
FROM gap_topic_members WHERE project_id = $project GROUP BY topic_id;

CREATE OR REPLACE TEMP TABLE gap_qn AS
SELECT topic_id, count(*) AS questions FROM gap_topic_questions WHERE project_id = $project GROUP BY topic_id;

DELETE FROM gap_topics WHERE project_id = $project AND topic_id NOT IN (SELECT topic_id FROM gap_agg);

UPDATE gap_topics SET
  questions = coalesce((SELECT q.questions FROM gap_qn q WHERE q.topic_id = gap_topics.topic_id), gap_topics.questions),
  turns = a.turns, conversations = a.conversations, first_asked_at = a.first_asked_at, last_asked_at = a.last_asked_at,
  turns_last_7d = a.turns_last_7d, turns_prev_7d = a.turns_prev_7d,
  trend = CASE WHEN a.turns_prev_7d = 0 THEN NULL ELSE round((a.turns_last_7d - a.turns_prev_7d) / a.turns_prev_7d, 4) END,
  period_from = $from, computed_at = $now
FROM gap_agg a
WHERE gap_topics.project_id = $project AND gap_topics.topic_id = a.topic_id;

CREATE OR REPLACE TEMP TABLE gap_m AS
SELECT g.id, g.occurred_at, g.page_path, q.topic_id
FROM gap_new g JOIN gap_topic_questions q ON q.project_id = $project AND q.qhash = g.qhash
WHERE q.topic_id IN (SELECT topic_id FROM new_topics);

-- A new topic's examples: its first three by a window over its own rows (QUALIFY), then the insert
-- (insert-new-topics.sql) joins small tables; its pages and sources: top-pages.sql over gap_mk. Not
-- one list(... ORDER BY ...) of every member per topic: such lists are held whole in memory, which a
-- full re-clustering's tail (tens of thousands of new questions) did not fit.
CREATE OR REPLACE TEMP TABLE gap_ex AS
SELECT topic_id, list(example ORDER BY n DESC, question) AS examples
FROM (
  SELECT topic_id, example, n, question FROM new_q
  WHERE topic_id IN (SELECT topic_id FROM new_topics)
  QUALIFY row_number() OVER (PARTITION BY topic_id ORDER BY n DESC, question) <= 3
)
GROUP BY topic_id;

CREATE OR REPLACE TEMP VIEW gap_mk AS
SELECT topic_id AS topic_key, id, occurred_at, page_path FROM gap_m
