-- The lake columns of gap_topic_members, in order (docs/lake.md).
SELECT project_id, topic_id, conversation_id, occurred_at
FROM gap_topic_members
