// Every pipeline `docs-etl sync` runs for each configured project.
import { assistantConversations } from './assistant-conversations.js';

export const PIPELINES = [assistantConversations] as const;
export { assistantConversations };
