-- The warehouse contract (README: Warehouse). Names here are a public interface.

-- One row per turn. Turns of one conversation share `id`; a turn is keyed by its timestamp too.
CREATE TABLE conversations (
  project_id        VARCHAR     NOT NULL,
  id                VARCHAR     NOT NULL,
  occurred_at       TIMESTAMPTZ NOT NULL,
  query             VARCHAR     NOT NULL,
  response          VARCHAR     NOT NULL,
  response_type     VARCHAR     NOT NULL,   -- 'answer' | 'clarifying_question'
  resolution_status VARCHAR     NOT NULL,   -- 'answered' | 'unanswered'
  query_category    VARCHAR,
  page_url          VARCHAR,
  page_path         VARCHAR,
  extra             JSON,                   -- fields the API sent that the contract does not name
  first_seen_at     TIMESTAMPTZ NOT NULL,   -- first run that stored this turn
  last_seen_at      TIMESTAMPTZ NOT NULL,   -- last run that read it
  updated_at        TIMESTAMPTZ NOT NULL,   -- last time any of its values changed (drives incremental export)
  PRIMARY KEY (project_id, id, occurred_at)
);

-- One row per cited source of a turn; a re-read turn's sources are replaced, not appended.
CREATE TABLE sources (
  project_id      VARCHAR     NOT NULL,
  conversation_id VARCHAR     NOT NULL,
  occurred_at     TIMESTAMPTZ NOT NULL,
  position        INTEGER     NOT NULL,
  title           VARCHAR     NOT NULL,
  url             VARCHAR     NOT NULL
);

-- Records that failed the contract, with the reason and the record as received.
CREATE TABLE quarantine (
  project_id  VARCHAR     NOT NULL,
  run_id      VARCHAR     NOT NULL,
  received_at TIMESTAMPTZ NOT NULL,
  error       VARCHAR     NOT NULL,
  raw         JSON
);

CREATE TABLE sync_runs (
  run_id           VARCHAR     PRIMARY KEY,
  project_id       VARCHAR     NOT NULL,
  pipeline         VARCHAR     NOT NULL,
  started_at       TIMESTAMPTZ NOT NULL,
  finished_at      TIMESTAMPTZ,
  status           VARCHAR     NOT NULL,   -- running | succeeded | failed | budget_exhausted | stopped | interrupted
  window_from      TIMESTAMPTZ,
  window_to        TIMESTAMPTZ,
  requests         INTEGER     NOT NULL DEFAULT 0,
  pages            INTEGER     NOT NULL DEFAULT 0,
  rows_upserted    BIGINT      NOT NULL DEFAULT 0,
  rows_quarantined BIGINT      NOT NULL DEFAULT 0,
  error            VARCHAR
);

-- The checkpoint per project and pipeline, written in the same transaction as each page.
CREATE TABLE sync_state (
  project_id   VARCHAR     NOT NULL,
  pipeline     VARCHAR     NOT NULL,
  organization VARCHAR     NOT NULL,       -- key fingerprint, never the key
  high_water   TIMESTAMPTZ,                -- `to` of the last completed window
  window_from  TIMESTAMPTZ,                -- open window (NULL when none)
  window_to    TIMESTAMPTZ,
  cursor       VARCHAR,                    -- nextCursor to resume the open window with
  pages        INTEGER     NOT NULL DEFAULT 0,
  rows         BIGINT      NOT NULL DEFAULT 0,
  run_id       VARCHAR,
  updated_at   TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (project_id, pipeline)
);
