-- Batch merge over a landing zone, coverage map, read log (issues 10 and 16).

-- 1. `conversations` loses its primary key: the merge keeps (project_id, id, occurred_at) unique,
-- and the key index no longer grows in memory with history. The table is rebuilt because DuckDB
-- cannot drop a constraint; the CHECK below stops the migration if the data were not unique.
-- `content_hash` (a hash of the turn's values and cited sources) lets the merge see a change without
-- reading the stored values: it compares keys and one number.
CREATE TEMP TABLE migration_0005_check AS
SELECT count(*) - count(DISTINCT (project_id, id, occurred_at)) AS duplicates FROM conversations;
SELECT CASE WHEN duplicates = 0 THEN 'ok' ELSE error('conversations holds ' || duplicates || ' duplicate keys; cannot drop the key') END
FROM migration_0005_check;
DROP VIEW IF EXISTS category_breakdown;
DROP VIEW IF EXISTS daily_unanswered_rate;
DROP VIEW IF EXISTS most_cited_sources;
DROP VIEW IF EXISTS threads;
DROP VIEW IF EXISTS top_unanswered_questions;
DROP VIEW IF EXISTS unanswered_by_page;
DROP VIEW IF EXISTS unanswered_by_page_title;
DROP VIEW IF EXISTS pages_by_citations;
DROP VIEW IF EXISTS pages_never_cited;
DROP VIEW IF EXISTS freshness;
CREATE TABLE conversations_0005 (
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
  updated_at        TIMESTAMPTZ NOT NULL,   -- last time any of its values (sources included) changed
  content_hash      UBIGINT                 -- hash of its values and sources as last read (NULL: stored before 0005)
);
INSERT INTO conversations_0005
SELECT project_id, id, occurred_at, query, response, response_type, resolution_status, query_category,
       page_url, page_path, extra, first_seen_at, last_seen_at, updated_at, NULL
FROM conversations ORDER BY occurred_at;
DROP TABLE conversations;
ALTER TABLE conversations_0005 RENAME TO conversations;

-- 2. The checkpoint gains what the landing zone and the planner need.
ALTER TABLE sync_state ADD COLUMN window_purpose VARCHAR;          -- head | settle | recheck | backfill
ALTER TABLE sync_state ADD COLUMN window_id VARCHAR;               -- the open window's read
ALTER TABLE sync_state ADD COLUMN "offset" BIGINT;                 -- next offset (offset-paged endpoints)
ALTER TABLE sync_state ADD COLUMN merged_seq BIGINT DEFAULT 0;     -- last landed page merged (exactly once)
ALTER TABLE sync_state ADD COLUMN window_new BIGINT DEFAULT 0;     -- rows of the open window not stored before
ALTER TABLE sync_state ADD COLUMN window_changed BIGINT DEFAULT 0; -- rows of the open window whose values changed
ALTER TABLE sync_state ADD COLUMN window_limit_ms BIGINT;          -- largest window span that worked after a bisection
ALTER TABLE sync_state ADD COLUMN backfill_from TIMESTAMPTZ;       -- the run's --from (NULL: all history)

-- Which pipeline a quarantined record came from (NULL: quarantined before 0005, all assistant turns).
ALTER TABLE quarantine ADD COLUMN pipeline VARCHAR;

-- 3. The coverage map: intervals of event time read completely, each with its last complete read.
CREATE TABLE coverage (
  project_id    VARCHAR     NOT NULL,
  pipeline      VARCHAR     NOT NULL,
  range_from    TIMESTAMPTZ NOT NULL,
  range_to      TIMESTAMPTZ NOT NULL,    -- exclusive
  first_read_at TIMESTAMPTZ NOT NULL,
  read_at       TIMESTAMPTZ NOT NULL,    -- last complete read
  reads         INTEGER     NOT NULL,    -- complete reads so far
  rows          BIGINT,                  -- rows found by the read that made this interval (NULL: unknown)
  settled       BOOLEAN     NOT NULL     -- read at least the settle age after its end: no re-read is due
);

-- The old high-water mark becomes coverage: everything up to it was read (the lookback re-read the
-- last day on every run, so the part older than a day before it counts as settled).
INSERT INTO coverage
SELECT s.project_id, s.pipeline,
       coalesce((SELECT min(occurred_at) FROM conversations c WHERE c.project_id = s.project_id), s.high_water - INTERVAL 1 DAY),
       s.high_water - INTERVAL 1 DAY, s.updated_at, s.updated_at, 2, NULL, true
FROM sync_state s
WHERE s.high_water IS NOT NULL
  AND coalesce((SELECT min(occurred_at) FROM conversations c WHERE c.project_id = s.project_id), s.high_water - INTERVAL 1 DAY) < s.high_water - INTERVAL 1 DAY;
INSERT INTO coverage
SELECT project_id, pipeline, high_water - INTERVAL 1 DAY, high_water, updated_at, updated_at, 1, NULL, false
FROM sync_state WHERE high_water IS NOT NULL;

-- 4. One row per complete window read: what the planner learns densities and the lag profile from.
CREATE TABLE sync_windows (
  project_id   VARCHAR     NOT NULL,
  pipeline     VARCHAR     NOT NULL,
  window_id    VARCHAR     NOT NULL,
  run_id       VARCHAR,
  purpose      VARCHAR     NOT NULL,
  window_from  TIMESTAMPTZ NOT NULL,
  window_to    TIMESTAMPTZ NOT NULL,
  completed_at TIMESTAMPTZ NOT NULL,
  pages        INTEGER     NOT NULL,
  rows         BIGINT      NOT NULL,   -- rows read (after de-duplication within each batch)
  new_rows     BIGINT      NOT NULL,   -- not stored before this read
  changed_rows BIGINT      NOT NULL    -- stored, with a value that changed
);
