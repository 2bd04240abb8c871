-- Static export (README: Static export). Names here are a public interface.

-- One row per static export job docs-etl started or resumed; upserted at start, at every status
-- transition and at the end. Archive columns are set once the bundle is downloaded and verified.
CREATE TABLE static_export_jobs (
  job_id            VARCHAR     PRIMARY KEY,
  domain            VARCHAR     NOT NULL,
  version           VARCHAR,                -- the version label asked for (NULL: latest published)
  status            VARCHAR     NOT NULL,   -- queued | running | completed | failed
  progress          DOUBLE      NOT NULL,   -- 0..100
  page_count        INTEGER     NOT NULL,
  created_at        TIMESTAMPTZ NOT NULL,   -- the API's createdAt
  updated_at        TIMESTAMPTZ NOT NULL,   -- the API's updatedAt, as last observed
  finished_at       TIMESTAMPTZ,            -- updatedAt once completed or failed
  error             VARCHAR,                -- the API's error text of a failed job
  size_bytes        BIGINT,                 -- of the verified bundle
  sha256            VARCHAR,                -- hex sha256 of the verified bundle
  archive_path      VARCHAR,                -- where it is stored; NULL once retention removed it
  bundle_expires_at TIMESTAMPTZ,            -- expiry of the last presigned link (the values file's, if written)
  recorded_at       TIMESTAMPTZ NOT NULL    -- last write by docs-etl
);

-- The page inventory of a downloaded bundle: one row per .html file. `path` is the page path as in
-- the API's `paths` (no leading slash, no `.html`, `index` for the root); `title` is the page's
-- <title> with HTML entities decoded; `bytes` the file size. A job's rows are replaced together.
CREATE TABLE site_pages (
  job_id VARCHAR NOT NULL,
  domain VARCHAR NOT NULL,
  path   VARCHAR NOT NULL,
  title  VARCHAR,
  bytes  BIGINT  NOT NULL
);

-- The page key of a URL or path, the rule that joins analytics URLs to exported pages: path only
-- (scheme, host, query and fragment dropped), leading and trailing '/' stripped, '.html' stripped,
-- empty → 'index'. NULL stays NULL.
CREATE MACRO page_key(u) AS CASE WHEN u IS NULL THEN NULL ELSE coalesce(nullif(
  regexp_replace(
    regexp_replace(
      regexp_replace(regexp_replace(u, '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*', ''), '[?#].*$', ''),
      '^/+|/+$', '', 'g'),
    '\.html$', ''),
  ''), 'index') END;
