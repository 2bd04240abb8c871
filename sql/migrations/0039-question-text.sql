-- The normalized text of a question, the rule that groups its turns: whitespace runs made one space,
-- trailing whitespace and punctuation (?!.,;:) dropped, trimmed, lower case. One home for a rule the
-- views (daily_unanswered_questions, top_unanswered_questions), the gap topic step (sql/topics) and
-- the report use alike: a question's hash in gap_topic_questions must be the same wherever it is
-- computed. Re-created in the read catalog with the other macros (sql/publish/macros.sql).
CREATE MACRO question_text(q) AS lower(trim(regexp_replace(regexp_replace(q, '\s+', ' ', 'g'), '[\s?!.,;:]+$', '')));
