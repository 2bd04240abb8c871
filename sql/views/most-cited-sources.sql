-- Documentation pages the assistant cites, by number of citing turns.
CREATE OR REPLACE VIEW most_cited_sources AS
SELECT
  s.project_id,
  s.url,
  arg_max(s.title, s.occurred_at)                                  AS title,
  count(*)                                                         AS citations,
  count(*) FILTER (WHERE c.resolution_status = 'unanswered')       AS citations_in_unanswered,
  max(s.occurred_at)                                               AS last_cited_at
FROM sources s
JOIN conversations c
  ON c.project_id = s.project_id AND c.id = s.conversation_id AND c.occurred_at = s.occurred_at
GROUP BY s.project_id, s.url;
