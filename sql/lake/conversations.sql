-- The lake columns of conversations, in order (docs/lake.md); JSON (extra) as text; content_hash (the merge's change detector) is left out.
SELECT project_id, id, occurred_at, query, response, response_type, resolution_status,
       query_category, page_url, page_path, CAST(extra AS VARCHAR) AS extra, first_seen_at,
       last_seen_at, updated_at
FROM conversations
