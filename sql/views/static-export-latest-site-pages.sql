-- The pages of each domain's latest completed export (see latest_static_exports).
CREATE OR REPLACE VIEW latest_site_pages AS
SELECT p.domain, p.job_id, p.path, p.title, p.bytes, e.finished_at AS exported_at
FROM site_pages p
JOIN latest_static_exports e ON e.job_id = p.job_id;
