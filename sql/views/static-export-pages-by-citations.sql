-- Every page of each domain's latest export with how often the assistant cited it as a source
-- (0 included). A source matches a page by page_key(url) = path; the URL's host is not compared.
CREATE OR REPLACE VIEW pages_by_citations AS
WITH cited AS (
  SELECT page_key(url) AS path, count(*) AS citations,
         count(DISTINCT conversation_id) AS conversations, max(occurred_at) AS last_cited_at
  FROM sources
  GROUP BY 1
)
SELECT p.domain, p.job_id, p.path, p.title, p.bytes,
       coalesce(c.citations, 0)     AS citations,
       coalesce(c.conversations, 0) AS conversations,
       c.last_cited_at
FROM latest_site_pages p
LEFT JOIN cited c ON c.path = p.path
ORDER BY citations DESC, p.domain, p.path;
