-- The sources the assistant cited most in the period (daily_cited_sources), with the latest title.
SELECT project_id,
       url,
       arg_max(title, last_cited_at)                     AS title,
       CAST(sum(citations) AS DOUBLE)                    AS citations,
       CAST(sum(citations_in_unanswered) AS DOUBLE)      AS citations_in_unanswered,
       max(last_cited_at)                                AS last_cited_at
FROM daily_cited_sources
WHERE day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
  AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
GROUP BY project_id, url
ORDER BY citations DESC, url
LIMIT $limit;
