-- The site's daily totals get one table per pipeline (they shared site_traffic_daily, whose views
-- and visitors columns two pipelines wrote): resetting or rebuilding one pipeline then deletes its
-- own rows and never the other's. Rows already read move over; site_traffic_daily is dropped.
-- Visitors' total is deduplicated per day (it is not human + ai, nor the sum of the pages').
CREATE TABLE site_views_daily (
  project_id VARCHAR NOT NULL, day DATE NOT NULL, human BIGINT, ai BIGINT, total BIGINT, read_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE site_visitors_daily (
  project_id VARCHAR NOT NULL, day DATE NOT NULL, human BIGINT, ai BIGINT, total BIGINT, read_at TIMESTAMPTZ NOT NULL
);
INSERT INTO site_views_daily
SELECT project_id, day, views_human, views_ai, views_total, read_at FROM site_traffic_daily WHERE views_total IS NOT NULL;
INSERT INTO site_visitors_daily
SELECT project_id, day, visitors_human, visitors_ai, visitors_total, read_at FROM site_traffic_daily WHERE visitors_total IS NOT NULL;
DROP TABLE site_traffic_daily;
