-- The fast path for turns not stored yet (a first sync, new history): a plain insert. Any turn
-- already stored fails the primary key, and the page is written again with the upsert.
INSERT INTO conversations (project_id, id, occurred_at, query, response, response_type, resolution_status,
                           query_category, page_url, page_path, extra, first_seen_at, last_seen_at, updated_at)
SELECT project_id, id, occurred_at, query, response, response_type, resolution_status,
       query_category, page_url, page_path, extra,
       CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ)
FROM page_stage;
