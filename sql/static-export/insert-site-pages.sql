-- A bundle's page inventory, passed as one JSON array of {path, title, bytes}.
INSERT INTO site_pages (job_id, domain, path, title, bytes)
SELECT $job_id, $domain, p.path, p.title, p.bytes
FROM (
  SELECT unnest(from_json(CAST($pages AS JSON), '[{"path":"VARCHAR","title":"VARCHAR","bytes":"BIGINT"}]'), recursive := true)
) AS p;
