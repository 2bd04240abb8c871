-- One row per conversation (turns share `id`): size, span, where it started, any unanswered turn.
CREATE OR REPLACE VIEW threads AS
SELECT
  project_id,
  id                                                               AS conversation_id,
  count(*)                                                         AS turns,
  min(occurred_at)                                                 AS first_turn_at,
  max(occurred_at)                                                 AS last_turn_at,
  arg_min(query, occurred_at)                                      AS first_query,
  arg_min(page_path, occurred_at)                                  AS starting_page_path,
  bool_or(resolution_status = 'unanswered')                        AS any_unanswered,
  count(*) FILTER (WHERE resolution_status = 'unanswered')         AS unanswered_turns
FROM conversations
GROUP BY project_id, id;
