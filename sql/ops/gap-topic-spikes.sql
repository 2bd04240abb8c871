-- Gap topics whose unanswered turns of the last 7 days at least doubled over the 7 days before and
-- reached $floor (the `gap-topic` alert); the biggest first.
SELECT project_id, label, turns_last_7d, turns_prev_7d
FROM gap_topics
WHERE turns_last_7d >= $floor AND turns_last_7d >= 2 * turns_prev_7d
ORDER BY project_id, turns_last_7d DESC, label;
