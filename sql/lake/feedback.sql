-- The lake columns of feedback, in order (docs/lake.md); JSON (extra) as text; content_hash (the merge's change detector) is left out.
SELECT project_id, id, created_at, path, comment, source, status, helpful, contact, code, filename,
       lang, CAST(extra AS VARCHAR) AS extra, first_seen_at, last_seen_at, updated_at
FROM feedback
