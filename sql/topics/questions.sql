-- Distinct questions of the period, most asked first, at most $cap; `example` is one way it was asked.
SELECT question, count(*) AS n, min(query) AS example
FROM gap_turns
WHERE question <> ''
GROUP BY question
ORDER BY n DESC, question
LIMIT $cap;
