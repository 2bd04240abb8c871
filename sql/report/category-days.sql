-- Turns, unanswered and clarifying-question turns per day (the project's zone) and query category, over the period
-- before and the period (daily_category_breakdown, summed over the selected projects). The headline
-- counts, the daily series and the category breakdown are sums of these rows.
SELECT strftime(day, '%Y-%m-%d')                     AS day,
       category,
       CAST(sum(turns) AS DOUBLE)                    AS turns,
       CAST(sum(unanswered) AS DOUBLE)               AS unanswered,
       CAST(sum(clarifying_questions) AS DOUBLE)     AS clarifying_questions
FROM daily_category_breakdown
WHERE day BETWEEN CAST($prev_from AS DATE) AND CAST($to AS DATE)
  AND (CAST($project AS VARCHAR) IS NULL OR project_id = CAST($project AS VARCHAR))
GROUP BY day, category
ORDER BY day, category;
