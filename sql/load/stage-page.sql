-- Stage one page of validated turns: every record is parsed once into the contract's typed shape;
-- the records listed in extra_at are also read as JSON, minus the named fields, for `extra`.
-- `ord` is the 1-based position in the page (dedupe-page.sql keeps a turn's last occurrence).
CREATE OR REPLACE TEMP TABLE page_stage AS
WITH typed AS (
  SELECT from_json(body, '{"conversations":[{"id":"VARCHAR","timestamp":"VARCHAR","query":"VARCHAR","response":"VARCHAR","responseType":"VARCHAR","sources":[{"title":"VARCHAR","url":"VARCHAR"}],"resolutionStatus":"VARCHAR","queryCategory":"VARCHAR","pageUrl":"VARCHAR"}]}').conversations AS r
  FROM page_input
), recs AS (
  SELECT unnest(r) AS j, generate_subscripts(r, 1) AS ord FROM typed
), extra_idx AS (
  SELECT p.body, coalesce(p.extra_at, range(len(t.r))) AS idx FROM page_input p, typed t
), extras AS (
  SELECT unnest(idx) + 1 AS ord, unnest(list_select(json_extract(body, '$.conversations[*]'), list_transform(idx, i -> i + 1))) AS j
  FROM extra_idx WHERE len(idx) > 0
), turns AS (
  SELECT
    CAST($project_id AS VARCHAR)               AS project_id,
    r.j.id                                      AS id,
    CAST(r.j.timestamp AS TIMESTAMPTZ)          AS occurred_at,
    r.j.query                                   AS query,
    r.j.response                                AS response,
    coalesce(r.j.responseType, 'answer')        AS response_type,
    r.j.resolutionStatus                        AS resolution_status,
    r.j.queryCategory                           AS query_category,
    r.j.pageUrl                                 AS page_url,
    CASE WHEN e.j IS NOT NULL THEN
      nullif(CAST(json_merge_patch(e.j, '{"id":null,"timestamp":null,"query":null,"response":null,"responseType":null,"sources":null,"resolutionStatus":null,"queryCategory":null,"pageUrl":null}') AS VARCHAR), '{}')
    END                                         AS extra,
    r.j.sources                                 AS sources,
    r.ord                                       AS ord
  FROM recs r LEFT JOIN extras e ON e.ord = r.ord
)
SELECT
  * EXCLUDE (extra),
  -- path of the page URL: scheme and host removed, query and fragment dropped; '/' for a bare host
  CASE WHEN page_url IS NULL THEN NULL
       ELSE coalesce(nullif(regexp_extract(regexp_replace(page_url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*', ''), '^[^?#]*'), ''), '/')
  END AS page_path,
  CAST(extra AS JSON) AS extra
FROM turns;
