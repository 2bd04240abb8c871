// Every pipeline `docs-etl sync` runs for each configured project (`--pipelines` or the config's
// `pipelines` select some). One plan per organization spends the shared budget on them by purpose,
// then by `priority`: the assistant head first, the feedback head, yesterday's daily aggregates.
// Opt-in pipelines (`optIn`) run only when named: assistant_threads.
import { assistantCallers } from './assistant-callers.js';
import { assistantConversations } from './assistant-conversations.js';
import { assistantThreads } from './assistant-threads.js';
import { feedback } from './feedback.js';
import { feedbackByPage } from './feedback-by-page.js';
import { pageViews } from './page-views.js';
import { pageVisitors } from './page-visitors.js';
import { searches } from './searches.js';

export const PIPELINES = [assistantConversations, feedback, pageViews, pageVisitors, searches, assistantCallers, feedbackByPage, assistantThreads] as const;
export { assistantCallers, assistantConversations, assistantThreads, feedback, feedbackByPage, pageViews, pageVisitors, searches };
