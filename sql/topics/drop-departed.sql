-- Incremental step: members whose turn left the period, stopped being unanswered or was deleted.
DELETE FROM gap_topic_members m
WHERE m.project_id = $project AND (
  m.occurred_at < $from OR NOT EXISTS (
    SELECT 1 FROM conversations c
    WHERE c.project_id = $project AND c.id = m.conversation_id AND c.occurred_at = m.occurred_at AND c.resolution_status = 'unanswered'));
