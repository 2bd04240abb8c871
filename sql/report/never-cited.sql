-- Pages of the latest static export that the assistant never cited (pages_never_cited: every domain,
-- all time), with how many there are in all.
SELECT domain, path, title, CAST(bytes AS DOUBLE) AS bytes, CAST(count(*) OVER () AS DOUBLE) AS total
FROM pages_never_cited
ORDER BY domain, path
LIMIT $limit;
