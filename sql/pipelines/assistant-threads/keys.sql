-- Threads to read for project $project_id: the conversations with an unanswered turn whose thread
-- is not stored yet and was not quarantined (a thread the API answered 400/404 for, or one that
-- failed the contract), most recent conversations first. What this selects is read once.
SELECT c.id AS key
FROM conversations c
WHERE c.project_id = $project_id
  AND NOT EXISTS (SELECT 1 FROM thread_messages t WHERE t.project_id = c.project_id AND t.thread_id = c.id)
  AND NOT EXISTS (
    SELECT 1 FROM quarantine q
    WHERE q.project_id = c.project_id AND q.pipeline = 'assistant_threads'
      AND coalesce(json_extract_string(q.raw, '$.key'), json_extract_string(q.raw, '$.threadId')) = c.id)
GROUP BY c.id
HAVING bool_or(c.resolution_status = 'unanswered')
ORDER BY max(c.occurred_at) DESC, c.id;
