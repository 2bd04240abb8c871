-- Merge the staged turns into `conversations` and `sources` (no key index: uniqueness of
-- (project_id, id, occurred_at) is kept here). Only stored rows inside the batch's time range
-- [{lo}, {hi}] are read, so the cost follows the batch, not the history.
-- first_seen_at is kept; last_seen_at moves; updated_at moves when a value (sources included) changed.
CREATE OR REPLACE TEMP TABLE merge_match AS
SELECT
  s.project_id, s.id, s.occurred_at, s.window_id,
  c.id IS NOT NULL AS stored,
  c.id IS NOT NULL AND (
       c.query IS DISTINCT FROM s.query
    OR c.response IS DISTINCT FROM s.response
    OR c.response_type IS DISTINCT FROM s.response_type
    OR c.resolution_status IS DISTINCT FROM s.resolution_status
    OR c.query_category IS DISTINCT FROM s.query_category
    OR c.page_url IS DISTINCT FROM s.page_url
    OR CAST(c.extra AS VARCHAR) IS DISTINCT FROM CAST(s.extra AS VARCHAR)
    OR (c.sources_hash IS NOT NULL AND c.sources_hash IS DISTINCT FROM s.sources_hash)
  ) AS changed,
  c.id IS NULL OR c.sources_hash IS DISTINCT FROM s.sources_hash AS sources_changed
FROM stage s
LEFT JOIN (SELECT project_id, id, occurred_at, query, response, response_type, resolution_status, query_category,
                  page_url, extra, sources_hash
           FROM conversations WHERE occurred_at BETWEEN {lo} AND {hi}) c
  ON c.project_id = s.project_id AND c.id = s.id AND c.occurred_at = s.occurred_at;

-- Only the stored turns are updated (with none stored, as in a first load, this touches nothing).
UPDATE conversations SET
  query             = s.query,
  response          = s.response,
  response_type     = s.response_type,
  resolution_status = s.resolution_status,
  query_category    = s.query_category,
  page_url          = s.page_url,
  page_path         = s.page_path,
  extra             = s.extra,
  sources_hash      = s.sources_hash,
  last_seen_at      = CAST($now AS TIMESTAMPTZ),
  updated_at        = CASE WHEN s.changed THEN CAST($now AS TIMESTAMPTZ) ELSE conversations.updated_at END
FROM (SELECT s.*, m.changed FROM stage s JOIN merge_match m
        ON m.project_id = s.project_id AND m.id = s.id AND m.occurred_at = s.occurred_at WHERE m.stored) AS s
WHERE conversations.occurred_at BETWEEN {lo} AND {hi}
  AND conversations.project_id = s.project_id AND conversations.id = s.id AND conversations.occurred_at = s.occurred_at;

INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status,
                           query_category, page_url, page_path, extra, first_seen_at, last_seen_at, updated_at, sources_hash)
SELECT s.project_id, s.id, s.occurred_at, s.query, s.response, s.response_type, s.resolution_status,
       s.query_category, s.page_url, s.page_path, s.extra,
       CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ), s.sources_hash
FROM stage s JOIN merge_match m ON m.project_id = s.project_id AND m.id = s.id AND m.occurred_at = s.occurred_at
WHERE NOT m.stored
ORDER BY s.occurred_at;

-- A re-read turn's sources are replaced, not appended, and only when they changed.
DELETE FROM sources
WHERE occurred_at BETWEEN {lo} AND {hi}
  AND (project_id, conversation_id, occurred_at) IN
      (SELECT project_id, id, occurred_at FROM merge_match WHERE stored AND sources_changed);

-- One row per cited source, position 1-based in the order the API listed them.
INSERT INTO sources (project_id, conversation_id, occurred_at, position, title, url)
SELECT project_id, id, occurred_at, CAST(pos AS INTEGER), src.title, src.url
FROM (
  SELECT s.project_id, s.id, s.occurred_at, unnest(s.sources) AS src, generate_subscripts(s.sources, 1) AS pos
  FROM stage s JOIN merge_match m ON m.project_id = s.project_id AND m.id = s.id AND m.occurred_at = s.occurred_at
  WHERE m.sources_changed
);

CREATE OR REPLACE TEMP TABLE merge_stats AS
SELECT window_id, count(*) AS rows, count(*) FILTER (WHERE NOT stored) AS new_rows, count(*) FILTER (WHERE changed) AS changed_rows
FROM merge_match
GROUP BY window_id;
