-- Incremental step: the period's unanswered turns that are no topic's member yet and changed since
-- $since, with their question normalized as gap-turns.sql does. Only these are read as text: the
-- turns already placed are not normalized again. $since: on the hourly path the last full
-- re-clustering's time (turns that arrived or changed after it: new, or over an hourly cap, or
-- unanswered since; one changed at that very time was merged before it, and it saw it). The
-- questions that full re-clustering left over topicMaxQuestions stay out until the next one, as
-- documented, instead of being placed 20,000 an hour (at 1M distinct turns that made every hourly
-- step 11-14 s). '-infinity' for a full re-clustering's tail: every turn.
-- Two scans (docs/performance.md, gap topics): `fresh` finds the new turns' keys on narrow columns
-- (no text read for the period's turns, which are nearly all members already); the text is then
-- read for those keys only, and the join's filter on the build side's occurred_at range lets DuckDB
-- skip the row groups outside it (turns are merged window by window, so clustered by time). One scan
-- reading every turn's query for the anti-join cost about three times the CPU.
CREATE OR REPLACE TEMP TABLE gap_new AS
WITH fresh AS (
  SELECT c.id, c.occurred_at
  FROM conversations c
  WHERE c.project_id = $project AND c.resolution_status = 'unanswered' AND c.occurred_at >= $from AND c.occurred_at < $to
    AND c.updated_at > CAST($since AS TIMESTAMPTZ)
    AND NOT EXISTS (SELECT 1 FROM gap_topic_members m WHERE m.project_id = $project AND m.conversation_id = c.id AND m.occurred_at = c.occurred_at)
)
SELECT id, occurred_at, page_path, query, question, hash(question) AS qhash
FROM (
  SELECT c.id, c.occurred_at, c.page_path, c.query, question_text(c.query) AS question
  FROM conversations c SEMI JOIN fresh f ON f.id = c.id AND f.occurred_at = c.occurred_at
  WHERE c.project_id = $project AND c.resolution_status = 'unanswered' AND c.occurred_at >= $from AND c.occurred_at < $to
)
WHERE question <> '';
