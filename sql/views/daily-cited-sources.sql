-- most_cited_sources per day: citing turns per project, source URL and day of the citing turn,
-- with the latest title seen that day. Summed over all days, citations and citations_in_unanswered
-- equal most_cited_sources'. The day is the citing turn's day in its project's zone (see
-- conversation_days).
CREATE OR REPLACE VIEW daily_cited_sources AS
SELECT
  s.project_id,
  c.day,
  s.url,
  arg_max(s.title, s.occurred_at)                                  AS title,
  count(*)                                                         AS citations,
  count(*) FILTER (WHERE c.resolution_status = 'unanswered')       AS citations_in_unanswered,
  max(s.occurred_at)                                               AS last_cited_at
FROM sources s
JOIN conversation_days c
  ON c.project_id = s.project_id AND c.id = s.conversation_id AND c.occurred_at = s.occurred_at
GROUP BY s.project_id, c.day, s.url;
