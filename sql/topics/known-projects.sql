-- Projects whose topics `docs-etl topics --rebuild` computes: every project with assistant turns.
SELECT DISTINCT project_id FROM conversations ORDER BY project_id;
