-- most_cited_sources per UTC day: citing turns per project, source URL and day of the citing turn,
-- with the latest title seen that day. Summed over all days, citations and citations_in_unanswered
-- equal most_cited_sources'. The day is the UTC date whatever the session's time zone (see
-- daily_category_breakdown).
CREATE OR REPLACE VIEW daily_cited_sources AS
SELECT
  s.project_id,
  CAST(make_timestamp(epoch_us(s.occurred_at)) AS DATE)            AS day,
  s.url,
  arg_max(s.title, s.occurred_at)                                  AS title,
  count(*)                                                         AS citations,
  count(*) FILTER (WHERE c.resolution_status = 'unanswered')       AS citations_in_unanswered,
  max(s.occurred_at)                                               AS last_cited_at
FROM sources s
JOIN conversations c
  ON c.project_id = s.project_id AND c.id = s.conversation_id AND c.occurred_at = s.occurred_at
GROUP BY s.project_id, CAST(make_timestamp(epoch_us(s.occurred_at)) AS DATE), s.url;
