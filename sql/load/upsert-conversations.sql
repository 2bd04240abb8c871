-- Re-read turns replace the stored version (categories and statuses are filled in later);
-- first_seen_at is kept, last_seen_at moves, updated_at moves only when a value changed.
INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status,
                           query_category, page_url, page_path, extra, first_seen_at, last_seen_at, updated_at)
SELECT project_id, id, occurred_at, query, response, response_type, resolution_status,
       query_category, page_url, page_path, extra,
       CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ)
FROM page_stage
ON CONFLICT (project_id, id, occurred_at) DO UPDATE SET
  query             = excluded.query,
  response          = excluded.response,
  response_type     = excluded.response_type,
  resolution_status = excluded.resolution_status,
  query_category    = excluded.query_category,
  page_url          = excluded.page_url,
  page_path         = excluded.page_path,
  extra             = excluded.extra,
  last_seen_at      = excluded.last_seen_at,
  updated_at        = CASE WHEN conversations.query IS DISTINCT FROM excluded.query
                             OR conversations.response IS DISTINCT FROM excluded.response
                             OR conversations.response_type IS DISTINCT FROM excluded.response_type
                             OR conversations.resolution_status IS DISTINCT FROM excluded.resolution_status
                             OR conversations.query_category IS DISTINCT FROM excluded.query_category
                             OR conversations.page_url IS DISTINCT FROM excluded.page_url
                             OR CAST(conversations.extra AS VARCHAR) IS DISTINCT FROM CAST(excluded.extra AS VARCHAR)
                           THEN excluded.updated_at ELSE conversations.updated_at END;
