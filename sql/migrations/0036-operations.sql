-- Operations (docs/operations.md). API responses per stream, endpoint and status code, summed over
-- runs, so the request counters (docs_etl_api_requests_total) survive restarts; what each run left
-- for later (docs_etl_deferred_windows); and the alert state of each stream: one row per event that
-- holds (failed, stale, …), so runs of separate processes alert once per change, not once per run.
CREATE TABLE api_responses (
  project_id   VARCHAR NOT NULL,
  pipeline     VARCHAR NOT NULL,
  organization VARCHAR NOT NULL,   -- key fingerprint, never the key
  endpoint     VARCHAR NOT NULL,   -- the endpoint's path template ({projectId} not substituted)
  code         VARCHAR NOT NULL,   -- HTTP status, or 'error' (no answer)
  requests     BIGINT  NOT NULL,
  PRIMARY KEY (project_id, pipeline, organization, endpoint, code)
);

CREATE TABLE run_deferrals (
  run_id   VARCHAR PRIMARY KEY,
  deferred INTEGER NOT NULL      -- optional windows the run's plan left for later runs
);

CREATE TABLE alert_state (
  project_id VARCHAR     NOT NULL,
  pipeline   VARCHAR     NOT NULL,
  event      VARCHAR     NOT NULL, -- failed | stale | stuck | rate-limited | quarantine | gap-topic
  since      TIMESTAMPTZ NOT NULL,
  reason     VARCHAR     NOT NULL,
  PRIMARY KEY (project_id, pipeline, event)
);
