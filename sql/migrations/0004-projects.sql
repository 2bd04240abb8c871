-- The projects a sync was configured with, and the time zone their days are counted in (README:
-- Tables and views). Upserted from the configuration at the start of every sync. Views compute day
-- boundaries in this zone (LEFT JOIN, UTC when a project has no row), never in the reader's session
-- zone, so every BI tool sees the same days. Names here are a public interface.
CREATE TABLE projects (
  project_id VARCHAR     PRIMARY KEY,
  timezone   VARCHAR     NOT NULL DEFAULT 'UTC',   -- IANA name, e.g. 'Europe/Berlin'
  updated_at TIMESTAMPTZ NOT NULL                  -- last time the row changed
);
