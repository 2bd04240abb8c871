-- The lake columns of site_pages, in order (docs/lake.md).
SELECT job_id, domain, path, title, bytes
FROM site_pages
