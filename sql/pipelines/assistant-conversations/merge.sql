-- Merge the staged turns into `conversations` and `sources` (no key index: uniqueness of
-- (project_id, id, occurred_at) is kept here). Only stored rows inside the batch's time range
-- [$lo, $hi] (the stage's least and greatest occurred_at) are read, and of them only the key and
-- content_hash, so the cost follows the batch, not the history. $lo, $hi and $now (the read time)
-- are bound values (src/warehouse/run-statements.ts runs this file one statement at a time).
-- first_seen_at is kept; last_seen_at moves; updated_at moves when a value (sources included)
-- changed. A turn stored before content_hash existed (NULL) takes the new values and hash without
-- moving updated_at, and its sources are written again.

-- What the batch finds, per turn: stored before or not, changed or not. It carries the sources
-- list, so the sources statements need no join back to the stage.
CREATE OR REPLACE TEMP TABLE merge_match AS
SELECT
  s.project_id, s.id, s.occurred_at, s.window_id, s.sources,
  c.id IS NOT NULL                                                      AS stored,
  c.id IS NOT NULL AND c.content_hash IS DISTINCT FROM s.content_hash   AS rewrite,
  c.content_hash IS NOT NULL AND c.content_hash <> s.content_hash       AS changed
FROM stage s
LEFT JOIN (SELECT project_id, id, occurred_at, content_hash FROM conversations WHERE occurred_at BETWEEN CAST($lo AS TIMESTAMPTZ) AND CAST($hi AS TIMESTAMPTZ)) c
  ON c.project_id = s.project_id AND c.id = s.id AND c.occurred_at = s.occurred_at;

-- One pass writes it all: changed turns take the new values, unchanged ones only last_seen_at,
-- new ones are inserted (DuckDB's MERGE: about half the cost of an UPDATE plus an INSERT).
MERGE INTO conversations c
USING stage s
ON c.project_id = s.project_id AND c.id = s.id AND c.occurred_at = s.occurred_at AND c.occurred_at BETWEEN CAST($lo AS TIMESTAMPTZ) AND CAST($hi AS TIMESTAMPTZ)
WHEN MATCHED AND c.content_hash IS DISTINCT FROM s.content_hash THEN UPDATE SET
    query = s.query, response = s.response, response_type = s.response_type, resolution_status = s.resolution_status,
    query_category = s.query_category, page_url = s.page_url, page_path = s.page_path, extra = s.extra,
    content_hash = s.content_hash, last_seen_at = CAST($now AS TIMESTAMPTZ),
    updated_at = CASE WHEN c.content_hash IS NULL THEN c.updated_at ELSE CAST($now AS TIMESTAMPTZ) END
WHEN MATCHED THEN UPDATE SET last_seen_at = CAST($now AS TIMESTAMPTZ)
WHEN NOT MATCHED THEN INSERT (project_id, id, occurred_at, query, response, response_type, resolution_status,
                              query_category, page_url, page_path, extra, first_seen_at, last_seen_at, updated_at, content_hash)
  VALUES (s.project_id, s.id, s.occurred_at, s.query, s.response, s.response_type, s.resolution_status,
          s.query_category, s.page_url, s.page_path, s.extra,
          CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ), s.content_hash);

-- A rewritten turn's sources are replaced, not appended.
DELETE FROM sources
WHERE occurred_at BETWEEN CAST($lo AS TIMESTAMPTZ) AND CAST($hi AS TIMESTAMPTZ)
  AND (project_id, conversation_id, occurred_at) IN (SELECT project_id, id, occurred_at FROM merge_match WHERE rewrite);

-- One row per cited source, position 1-based in the order the API listed them.
INSERT INTO sources (project_id, conversation_id, occurred_at, position, title, url)
SELECT project_id, id, occurred_at, CAST(pos AS INTEGER), src.title, src.url
FROM (
  SELECT project_id, id, occurred_at, unnest(sources) AS src, generate_subscripts(sources, 1) AS pos
  FROM merge_match WHERE NOT stored OR rewrite
);

CREATE OR REPLACE TEMP TABLE merge_stats AS
SELECT window_id, count(*) AS rows, count(*) FILTER (WHERE NOT stored) AS new_rows, count(*) FILTER (WHERE changed) AS changed_rows
FROM merge_match
GROUP BY window_id;
