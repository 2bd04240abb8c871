-- Where a stream's history starts, probed once (issue 34, item 2): before it, the API has no
-- record; `rows` records were older than `probe_to` when probed (the estimate of the backfill left).
CREATE TABLE history_probes (
  project_id    VARCHAR     NOT NULL,
  pipeline      VARCHAR     NOT NULL,
  probe_to      TIMESTAMPTZ NOT NULL,
  rows          BIGINT      NOT NULL,
  history_start TIMESTAMPTZ,            -- the first week with data (NULL: none before probe_to)
  probed_at     TIMESTAMPTZ NOT NULL,
  requests      INTEGER     NOT NULL,
  PRIMARY KEY (project_id, pipeline)
);
