-- Gap topics (docs/topics.md): the unanswered questions of a recent period grouped by what they
-- ask. Replaced per project by each topic step; a topic keeps its id across runs while its members
-- stay mostly the same.
CREATE TABLE gap_topics (
  project_id     VARCHAR     NOT NULL,
  topic_id       VARCHAR     NOT NULL,
  language       VARCHAR     NOT NULL,   -- en, de, fr, es, pt, it, nl, script:<name>, und (undetermined)
  label          VARCHAR     NOT NULL,   -- a representative question: the most asked one of the topic
  questions      INTEGER     NOT NULL,   -- distinct questions (normalized text)
  turns          BIGINT      NOT NULL,   -- unanswered turns in the period
  conversations  BIGINT      NOT NULL,
  first_asked_at TIMESTAMPTZ NOT NULL,
  last_asked_at  TIMESTAMPTZ NOT NULL,
  turns_last_7d  BIGINT      NOT NULL,   -- turns in the 7 days before computed_at
  turns_prev_7d  BIGINT      NOT NULL,   -- turns in the 7 days before those
  trend          DOUBLE,                 -- (last_7d - prev_7d) / prev_7d; NULL when prev_7d = 0
  examples       VARCHAR[]   NOT NULL,   -- up to 3 questions as asked, most asked first
  top_pages      VARCHAR[]   NOT NULL,   -- up to 3 page paths where its conversations started
  cited_sources  VARCHAR[]   NOT NULL,   -- up to 3 URLs the assistant cited when it failed
  period_from    TIMESTAMPTZ NOT NULL,
  computed_at    TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (project_id, topic_id)
);

-- One row per unanswered turn of the period that belongs to a topic.
CREATE TABLE gap_topic_members (
  project_id      VARCHAR     NOT NULL,
  topic_id        VARCHAR     NOT NULL,
  conversation_id VARCHAR     NOT NULL,
  occurred_at     TIMESTAMPTZ NOT NULL
);

-- Each topic step: what it grouped, what it cost, or that nothing changed since the last one.
CREATE TABLE gap_topic_runs (
  project_id        VARCHAR     NOT NULL,
  computed_at       TIMESTAMPTZ NOT NULL,
  period_from       TIMESTAMPTZ NOT NULL,
  fingerprint       VARCHAR     NOT NULL,   -- the inputs; an equal one next time skips the step
  status            VARCHAR     NOT NULL,   -- computed | unchanged
  turns             BIGINT      NOT NULL,
  questions         INTEGER     NOT NULL,   -- distinct questions grouped
  questions_skipped INTEGER     NOT NULL,   -- distinct questions over the maxQuestions cap (least asked)
  topics            INTEGER     NOT NULL,
  topics_kept_id    INTEGER     NOT NULL,   -- topics that kept an id of the previous step
  duration_ms       DOUBLE      NOT NULL,
  peak_rss_bytes    BIGINT      NOT NULL
);
