-- One row per cited source, position 1-based in the order the API listed them.
INSERT INTO sources (project_id, conversation_id, occurred_at, position, title, url)
SELECT project_id, id, occurred_at, CAST(pos AS INTEGER), s.title, s.url
FROM (SELECT project_id, id, occurred_at, unnest(sources) AS s, generate_subscripts(sources, 1) AS pos FROM page_stage);
