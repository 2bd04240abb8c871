-- Merge staged feedback into `feedback`, key (project_id, id). Entries without createdAt can come
-- back in any window, so the match reads the project's entries whatever their time (feedback is
-- small); a re-read entry takes its new status (updated_at moves when anything changed).
CREATE OR REPLACE TEMP TABLE merge_match AS
SELECT s.project_id, s.id, s.window_id,
       f.id IS NOT NULL                                                   AS stored,
       f.content_hash IS NOT NULL AND f.content_hash <> s.content_hash    AS changed
FROM stage s
LEFT JOIN (SELECT project_id, id, content_hash FROM feedback WHERE project_id IN (SELECT DISTINCT project_id FROM stage)) f
  ON f.project_id = s.project_id AND f.id = s.id;

MERGE INTO feedback f
USING stage s
ON f.project_id = s.project_id AND f.id = s.id
WHEN MATCHED AND f.content_hash IS DISTINCT FROM s.content_hash THEN UPDATE SET
  created_at = s.created_at, path = s.path, comment = s.comment, source = s.source, status = s.status,
  helpful = s.helpful, contact = s.contact, code = s.code, filename = s.filename, lang = s.lang, extra = s.extra,
  content_hash = s.content_hash, last_seen_at = CAST($now AS TIMESTAMPTZ), updated_at = CAST($now AS TIMESTAMPTZ)
WHEN MATCHED THEN UPDATE SET last_seen_at = CAST($now AS TIMESTAMPTZ)
WHEN NOT MATCHED THEN INSERT (project_id, id, created_at, path, comment, source, status, helpful, contact, code, filename, lang,
                              extra, first_seen_at, last_seen_at, updated_at, content_hash)
  VALUES (s.project_id, s.id, s.created_at, s.path, s.comment, s.source, s.status, s.helpful, s.contact, s.code, s.filename,
          s.lang, s.extra, CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ), s.content_hash);

CREATE OR REPLACE TEMP TABLE merge_stats AS
SELECT window_id, count(*) AS rows, count(*) FILTER (WHERE NOT stored) AS new_rows, count(*) FILTER (WHERE changed) AS changed_rows
FROM merge_match GROUP BY window_id;
