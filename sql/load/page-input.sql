-- The page as received, in a temp table that stage-page.sql parses (DuckDB parses the JSON itself:
-- faster than building rows in JS; a bound parameter parsed in place is much slower than a column).
-- $page holds the turns at $.conversations; $extra_at lists the (0-based) turns that carry fields
-- the contract does not name (NULL: any may), so only those are taken apart for `extra`.
CREATE OR REPLACE TEMP TABLE page_input AS
SELECT CAST($page AS VARCHAR) AS body, CAST($extra_at AS BIGINT[]) AS extra_at;
