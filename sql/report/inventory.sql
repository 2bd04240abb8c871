-- Whether a static export inventory exists (latest_site_pages: every domain's latest export).
SELECT CAST(count(*) AS DOUBLE)                AS pages,
       CAST(count(DISTINCT domain) AS DOUBLE)  AS domains,
       max(exported_at)                        AS exported_at
FROM latest_site_pages;
