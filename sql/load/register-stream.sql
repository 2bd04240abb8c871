-- A run names its streams before reading: the row exists from the first run on, with the run's
-- backfill bound (--from; NULL: all history) for status to measure what is left.
INSERT INTO sync_state (project_id, pipeline, organization, backfill_from, updated_at)
VALUES ($project_id, $pipeline, $organization, CAST($backfill_from AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ))
ON CONFLICT (project_id, pipeline) DO UPDATE SET
  organization = excluded.organization, backfill_from = excluded.backfill_from;
