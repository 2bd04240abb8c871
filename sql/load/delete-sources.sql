-- A re-read turn's sources are replaced, not appended.
DELETE FROM sources
WHERE project_id = $project_id
  AND (conversation_id, occurred_at) IN (SELECT id, occurred_at FROM page_stage);
