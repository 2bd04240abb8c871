-- A turn repeated within the page keeps its last occurrence (the upsert cannot write a row twice
-- in one statement). Skipped when validation saw no (id, instant) twice in the page.
DELETE FROM page_stage
WHERE ord NOT IN (SELECT max(ord) FROM page_stage GROUP BY id, occurred_at);
