-- The lake columns of thread_messages, in order (docs/lake.md); JSON (extra) as text.
SELECT project_id, thread_id, message_id, position, role, content, created_at, thread_created_at,
       CAST(extra AS VARCHAR) AS extra, fetched_at
FROM thread_messages
