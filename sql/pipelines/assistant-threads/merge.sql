-- Merge staged threads into `thread_messages`: a thread read replaces the thread's stored messages
-- (a transcript is read whole). new_rows: messages not stored before; changed_rows: stored ones
-- whose position, role, content or time changed.
CREATE OR REPLACE TEMP TABLE merge_match AS
SELECT s.window_id,
       t.message_id IS NOT NULL AS stored,
       t.message_id IS NOT NULL AND (t.position, t.role, t.content, t.created_at) IS DISTINCT FROM (s.position, s.role, s.content, s.created_at) AS changed
FROM stage s
LEFT JOIN thread_messages t ON t.project_id = s.project_id AND t.thread_id = s.thread_id AND t.message_id = s.message_id;

DELETE FROM thread_messages
WHERE (project_id, thread_id) IN (SELECT DISTINCT project_id, thread_id FROM stage);

INSERT INTO thread_messages (project_id, thread_id, message_id, position, role, content, created_at, thread_created_at, extra, fetched_at)
SELECT project_id, thread_id, message_id, position, role, content, created_at, thread_created_at, extra, CAST($now AS TIMESTAMPTZ)
FROM stage;

CREATE OR REPLACE TEMP TABLE merge_stats AS
SELECT window_id, count(*) AS rows, count(*) FILTER (WHERE NOT stored) AS new_rows, count(*) FILTER (WHERE changed) AS changed_rows
FROM merge_match GROUP BY window_id;
