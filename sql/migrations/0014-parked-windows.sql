-- Windows parked because the API kept paging without end (issue 33, item 7): one per stream at
-- most. A parked stream is not read until retry_at; a retry that pages without end again parks it
-- for twice as long (at most a day); a retry that completes removes the row.
CREATE TABLE parked_windows (
  project_id   VARCHAR     NOT NULL,
  pipeline     VARCHAR     NOT NULL,
  window_from  TIMESTAMPTZ NOT NULL,
  window_to    TIMESTAMPTZ NOT NULL,
  purpose      VARCHAR,
  reason       VARCHAR     NOT NULL,
  parked_at    TIMESTAMPTZ NOT NULL,
  attempts     INTEGER     NOT NULL,   -- reads of the window that paged without end, in a row
  retry_at     TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (project_id, pipeline)
);
