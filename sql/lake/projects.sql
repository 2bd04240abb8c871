-- The lake columns of projects, in order (docs/lake.md).
SELECT project_id, timezone, updated_at
FROM projects
