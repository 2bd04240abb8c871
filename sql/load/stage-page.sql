-- Stage one page of validated turns for upsert. DuckDB parses the JSON itself (faster than
-- building rows in JS). $page is JSON text, $path where the array of turns is inside it.
-- A turn repeated within the page keeps its last occurrence.
CREATE OR REPLACE TEMP TABLE page_stage AS
WITH recs AS (
  SELECT unnest(r) AS j, generate_subscripts(r, 1) AS ord
  FROM (SELECT CAST(json_extract(CAST($page AS JSON), CAST($path AS VARCHAR)) AS JSON[]) AS r)
), turns AS (
  SELECT
    CAST($project_id AS VARCHAR)               AS project_id,
    j->>'id'                                    AS id,
    CAST(j->>'timestamp' AS TIMESTAMPTZ)        AS occurred_at,
    j->>'query'                                 AS query,
    j->>'response'                              AS response,
    coalesce(j->>'responseType', 'answer')      AS response_type,
    j->>'resolutionStatus'                      AS resolution_status,
    j->>'queryCategory'                         AS query_category,
    j->>'pageUrl'                               AS page_url,
    nullif(CAST(json_merge_patch(j, '{"id":null,"timestamp":null,"query":null,"response":null,"responseType":null,"sources":null,"resolutionStatus":null,"queryCategory":null,"pageUrl":null}') AS VARCHAR), '{}') AS extra,
    coalesce(CAST(j->'sources' AS JSON[]), [])  AS sources,
    ord
  FROM recs
)
SELECT
  * EXCLUDE (ord, extra),
  -- path of the page URL: scheme and host removed, query and fragment dropped; '/' for a bare host
  CASE WHEN page_url IS NULL THEN NULL
       ELSE coalesce(nullif(regexp_extract(regexp_replace(page_url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*', ''), '^[^?#]*'), ''), '/')
  END AS page_path,
  CAST(extra AS JSON) AS extra
FROM turns
QUALIFY row_number() OVER (PARTITION BY id, occurred_at ORDER BY ord DESC) = 1;
