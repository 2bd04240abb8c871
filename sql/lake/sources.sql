-- The lake columns of sources, in order (docs/lake.md).
SELECT project_id, conversation_id, occurred_at, position, title, url
FROM sources
