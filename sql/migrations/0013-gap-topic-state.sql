-- Incremental gap topics (docs/topics.md, issue 37): what an hourly step needs to place only its new
-- questions into the existing topics, kept in the warehouse so the step's memory does not grow with
-- the period. Rebuilt by the full re-clustering (at most daily), extended by each hourly step.

-- Every distinct question (hash of its normalized text, as sql/topics/gap-turns.sql) already placed.
CREATE TABLE gap_topic_questions (
  project_id  VARCHAR     NOT NULL,
  qhash       UBIGINT     NOT NULL,
  topic_id    VARCHAR     NOT NULL,
  language    VARCHAR     NOT NULL,
  similarity  DOUBLE,                 -- cosine to the topic it joined (NULL: it started or was clustered with it)
  assigned_at TIMESTAMPTZ NOT NULL
);

-- A topic's representation: the heaviest terms of its members' mean TF-IDF vector, unit length.
CREATE TABLE gap_topic_terms (
  project_id VARCHAR NOT NULL,
  topic_id   VARCHAR NOT NULL,
  language   VARCHAR NOT NULL,
  term       VARCHAR NOT NULL,        -- 'w:stem' (word) or 'c:abc' (character trigram)
  weight     DOUBLE  NOT NULL
);

-- Document frequencies of the last full re-clustering, per language (term '' = its questions): the
-- IDF an hourly step weighs new questions with.
CREATE TABLE gap_topic_df (
  project_id VARCHAR NOT NULL,
  language   VARCHAR NOT NULL,
  term       VARCHAR NOT NULL,
  df         INTEGER NOT NULL
);

-- Labels a writer reads (issue 37 item 4): the topic's distinctive terms (class-based TF-IDF) and
-- its most representative question (the medoid). NULL on rows written before this migration.
ALTER TABLE gap_topics ADD COLUMN distinctive_terms VARCHAR[];
ALTER TABLE gap_topics ADD COLUMN medoid VARCHAR;

-- full: the whole period re-clustered; incremental: only the new questions placed; unchanged.
ALTER TABLE gap_topic_runs ADD COLUMN mode VARCHAR;
