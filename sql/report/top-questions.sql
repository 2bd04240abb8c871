-- The most asked unanswered questions of the period (daily_unanswered_questions): per project and
-- normalized question, the times asked, when last asked, the latest wording, the starting page most
-- of its asks came from (a known page before '(unknown)') and on how many pages it was asked.
WITH per_page AS (
  SELECT project_id, question, page_path,
         sum(times_asked)                        AS times_asked,
         max(last_asked_at)                      AS last_asked_at,
         arg_max(example_query, last_asked_at)   AS example_query
  FROM daily_unanswered_questions
  WHERE day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
    AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
  GROUP BY project_id, question, page_path
)
SELECT project_id,
       question,
       CAST(sum(times_asked) AS DOUBLE)                  AS times_asked,
       max(last_asked_at)                                AS last_asked_at,
       arg_max(example_query, last_asked_at)             AS example_query,
       arg_max(page_path, (page_path <> '(unknown)', times_asked, page_path)) AS top_page_path,
       CAST(count(*) AS DOUBLE)                          AS pages
FROM per_page
GROUP BY project_id, question
ORDER BY times_asked DESC, last_asked_at DESC, question
LIMIT $limit;
