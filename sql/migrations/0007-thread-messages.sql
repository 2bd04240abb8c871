-- Transcripts of assistant conversations (GET /assistant/threads/{threadId}, the opt-in pipeline
-- assistant_threads): one row per message, key (project_id, thread_id, message_id). thread_id is
-- the conversation's id (conversations.id). A thread read again replaces its rows.
CREATE TABLE thread_messages (
  project_id        VARCHAR     NOT NULL,
  thread_id         VARCHAR     NOT NULL,
  message_id        VARCHAR     NOT NULL,
  position          INTEGER     NOT NULL,   -- 1-based, in the order the API listed the messages
  role              VARCHAR     NOT NULL,   -- 'user' | 'assistant'
  content           VARCHAR     NOT NULL,
  created_at        TIMESTAMPTZ NOT NULL,   -- when the message was sent
  thread_created_at TIMESTAMPTZ NOT NULL,   -- when the thread started
  extra             JSON,                   -- fields of the thread the contract does not name
  fetched_at        TIMESTAMPTZ NOT NULL    -- when the thread was read
);
