-- The other analytics exports (issue 13). Names here are a public interface (README: Tables).
-- Daily tables hold one local day of the project (projects.timezone) per `day`, as the API
-- aggregated it for that day; `read_at` is when that day was last read (each day is read once it
-- is over, and again once its late data settled).

-- One row per feedback entry (GET /feedback), its current status; key (project_id, id).
CREATE TABLE feedback (
  project_id    VARCHAR     NOT NULL,
  id            VARCHAR     NOT NULL,
  created_at    TIMESTAMPTZ,             -- NULL when the API gives no time
  path          VARCHAR     NOT NULL,    -- the page or URL the feedback is about
  comment       VARCHAR,
  source        VARCHAR     NOT NULL,    -- code_snippet | contextual | agent | thumbs_only
  status        VARCHAR     NOT NULL,    -- pending | in_progress | resolved | dismissed (changes later)
  helpful       BOOLEAN,                 -- contextual: the reader found the page helpful
  contact       VARCHAR,                 -- contextual: an email left by the reader
  code          VARCHAR,                 -- code_snippet: the snippet
  filename      VARCHAR,
  lang          VARCHAR,
  extra         JSON,
  first_seen_at TIMESTAMPTZ NOT NULL,
  last_seen_at  TIMESTAMPTZ NOT NULL,
  updated_at    TIMESTAMPTZ NOT NULL,
  content_hash  UBIGINT
);

-- GET /feedback/by-page per day; `truncated`: the API had more paths than a split request could
-- return that day (the day's rows are then incomplete; see docs/pipelines.md).
CREATE TABLE feedback_by_page_daily (
  project_id  VARCHAR     NOT NULL,
  day         DATE        NOT NULL,
  path        VARCHAR     NOT NULL,
  thumbs_up   BIGINT      NOT NULL,
  thumbs_down BIGINT      NOT NULL,
  code        BIGINT      NOT NULL,
  total       BIGINT      NOT NULL,
  truncated   BOOLEAN     NOT NULL,
  read_at     TIMESTAMPTZ NOT NULL
);

-- GET /searches per day: the top terms by hits (the first page by default) and the day's total.
CREATE TABLE searches_daily (
  project_id       VARCHAR     NOT NULL,
  day              DATE        NOT NULL,
  search_query     VARCHAR     NOT NULL,
  hits             BIGINT      NOT NULL,
  ctr              DOUBLE      NOT NULL,
  top_clicked_page VARCHAR,
  last_searched_at TIMESTAMPTZ,
  rank             INTEGER     NOT NULL,   -- 1 = most searched that day
  read_at          TIMESTAMPTZ NOT NULL
);
CREATE TABLE searches_daily_totals (
  project_id     VARCHAR     NOT NULL,
  day            DATE        NOT NULL,
  total_searches BIGINT      NOT NULL,     -- every search event of the day (sum of all hits)
  terms_read     INTEGER     NOT NULL,     -- terms kept in searches_daily
  truncated      BOOLEAN     NOT NULL,     -- more terms existed than were read
  read_at        TIMESTAMPTZ NOT NULL
);

-- GET /views and GET /visitors per day and page, and their site-wide totals. Visitors' `total` is
-- deduplicated across human and AI: it does not equal human + ai.
CREATE TABLE page_views_daily (
  project_id VARCHAR NOT NULL, day DATE NOT NULL, path VARCHAR NOT NULL,
  human BIGINT NOT NULL, ai BIGINT NOT NULL, total BIGINT NOT NULL, read_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE page_visitors_daily (
  project_id VARCHAR NOT NULL, day DATE NOT NULL, path VARCHAR NOT NULL,
  human BIGINT NOT NULL, ai BIGINT NOT NULL, total BIGINT NOT NULL, read_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE site_traffic_daily (
  project_id VARCHAR NOT NULL, day DATE NOT NULL,
  views_human BIGINT, views_ai BIGINT, views_total BIGINT,
  visitors_human BIGINT, visitors_ai BIGINT, visitors_total BIGINT,
  read_at TIMESTAMPTZ NOT NULL
);

-- GET /assistant/caller-stats per day: where assistant queries came from.
CREATE TABLE assistant_callers_daily (
  project_id VARCHAR NOT NULL, day DATE NOT NULL,
  web BIGINT NOT NULL, api BIGINT NOT NULL, other BIGINT NOT NULL, total BIGINT NOT NULL, read_at TIMESTAMPTZ NOT NULL
);
