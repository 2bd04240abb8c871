-- Pages of each domain's latest export that the assistant never cited as a source
-- (matched by page_key(sources.url) = path; the URL's host is not compared).
CREATE OR REPLACE VIEW pages_never_cited AS
SELECT p.domain, p.job_id, p.path, p.title, p.bytes
FROM latest_site_pages p
WHERE NOT EXISTS (SELECT 1 FROM sources s WHERE page_key(s.url) = p.path)
ORDER BY p.domain, p.path;
