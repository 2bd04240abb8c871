// Where an all-history stream's history starts is probed (sync/run/history-probe.ts) for one
// pipeline: the assistant's caller-stats endpoint counts its turns in any range in one request.

/** The one pipeline whose rows caller-stats counts. */
export const PROBED_PIPELINE = 'assistant_conversations';
