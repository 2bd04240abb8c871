-- Unanswered turns by the page the conversation started on, with that page's title from the latest
-- export. When several domains' exports hold the path, the domain equal to page_url's host wins,
-- else the first domain by name; title is NULL when no export holds the page.
CREATE OR REPLACE VIEW unanswered_by_page_title AS
WITH unanswered AS (
  SELECT project_id,
         page_path,
         page_key(page_path)                                                         AS key,
         any_value(lower(regexp_extract(page_url, '^[a-zA-Z][a-zA-Z0-9+.-]*://([^/:?#]+)', 1))) AS host,
         count(*)                                                                    AS unanswered_turns,
         count(DISTINCT id)                                                          AS conversations
  FROM conversations
  WHERE resolution_status = 'unanswered'
  GROUP BY project_id, page_path
),
titled AS (
  SELECT u.*, p.domain, p.title,
         row_number() OVER (PARTITION BY u.project_id, u.page_path
                            ORDER BY (p.domain = u.host) DESC NULLS LAST, p.domain) AS rank
  FROM unanswered u
  LEFT JOIN latest_site_pages p ON p.path = u.key
)
SELECT project_id, coalesce(page_path, '(unknown)') AS page_path, key AS page_key, title, domain,
       unanswered_turns, conversations
FROM titled
WHERE rank = 1
ORDER BY unanswered_turns DESC, project_id, page_path;
