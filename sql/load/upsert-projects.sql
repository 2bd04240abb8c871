-- One configured project (src/sync/load/projects.ts): inserted, or its time zone replaced when the
-- configuration changed it; updated_at moves only on a change.
INSERT INTO projects (project_id, timezone, updated_at)
VALUES ($project_id, $timezone, CAST($now AS TIMESTAMPTZ))
ON CONFLICT (project_id) DO UPDATE SET timezone = excluded.timezone, updated_at = excluded.updated_at
WHERE projects.timezone IS DISTINCT FROM excluded.timezone;
