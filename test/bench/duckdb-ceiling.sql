-- The bench's ceiling: every saved page in one bulk statement, no key, no per-page transaction.
-- {files} is replaced by the page files' glob (a table function's path must be a literal).
CREATE TABLE flat AS
SELECT 'demo' AS project_id, c.id, CAST(c.timestamp AS TIMESTAMPTZ) AS occurred_at, c.query, c.response,
       coalesce(c.responseType, 'answer') AS response_type, c.resolutionStatus AS resolution_status,
       c.queryCategory AS query_category, c.pageUrl AS page_url,
       CASE WHEN c.pageUrl IS NULL THEN NULL
            ELSE coalesce(nullif(regexp_extract(regexp_replace(c.pageUrl, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*', ''), '^[^?#]*'), ''), '/')
       END AS page_path,
       c.sources
FROM (SELECT unnest(conversations) AS c FROM read_json('{files}'));
