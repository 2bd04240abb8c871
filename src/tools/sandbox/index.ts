// The local twin of the analytics and static export API (used by the demo, the tests and
// `docs-etl sandbox`). See server.ts for the routes, analytics-routes.ts for the eight analytics
// endpoints and analytics-gateway.ts for the rules they share.
//
// Data: a `conversations` history (static, served in an order unrelated to time), optionally live
// arrivals (`live`), or steady `traffic` (R turns a day over `historyDays` before start and on as
// the clock advances, with late arrivals and later changes). Every record is rendered on demand
// from (seed, project, conversation, turn) and compact per-turn columns, so millions of turns fit
// in ~30 bytes each; the same seed and the same clock give the same data.
//
// It serves the eight analytics endpoints (analytics-routes.ts) behind one gateway: bearer auth,
// one per-organization sliding-window rate limit for all of them, latency, faults. Beside the
// assistant turns, each project has a docs site's activity (site-activity.ts): feedback entries
// (late arrivals, statuses that change with the clock), search terms, and views and visitors per
// page (hourly rollups whose days keep growing for SETTLE_MS after they end, then are final).
//
// Ground truth for tests and harnesses, on the Sandbox object:
//   truth(projectId)                   full records (parsed), served order; fine for small sets
//   malformed(projectId)               the malformed records, as served
//   truthKeys(projectId, {fromMs, toMs}?)  columns {count, id[], timestampMs, visibleAt,
//                                       queryCategory[], resolutionStatus[]} of the valid turns
//                                       visible now, current version: for millions of turns
//   visibleCount(projectId, atMs?, {fromMs, toMs}?)  valid turns visible at an instant
//   feedbackTruth(projectId, {fromMs, toMs}?)  valid feedback entries visible now, current status,
//                                       served order (a null createdAt matches no bounded range)
//   feedbackMalformed(projectId, range?) the malformed feedback entries, as served
//   aggregateTruth(projectId, endpoint, fromMs, toMs, {source?, status?}?)  the full unpaged answer
//                                       of feedback/by-page, searches, views, visitors or
//                                       assistant/caller-stats for [fromMs, toMs), as served now
//   threadTruth(projectId, threadId)    a thread as served now, or null (404)
// and over HTTP (loopback, test-only): /__sandbox/truth?projectId=X[&compact=1&from=MS&to=MS],
// /__sandbox/visible-count?projectId=X[&at=MS], /__sandbox/feedback-truth?projectId=X[&from=MS&to=MS],
// /__sandbox/aggregate?projectId=X&endpoint=E[&from=MS&to=MS&source=S&status=A,B],
// /__sandbox/thread?projectId=X&threadId=T (test-routes.ts).
export {
  DEMO_API_KEY, DEMO_PROJECT_ID, type FaultKind, type SandboxOptions,
} from './options.js';
export { defaultSandboxOptions } from './defaults.js';
export { trafficOptions } from './arrival-models.js';
export { startSandbox, type Sandbox } from './server.js';
export type { LoggedRequest } from './request-log.js';
export type { TruthKeys } from './truth-keys.js';
export type { FeedbackRecord } from './aggregate-truth.js';
export type { AssistantThread } from './assistant-thread.js';
export { SOURCES as FEEDBACK_SOURCES, STATUSES as FEEDBACK_STATUSES } from './feedback-day.js';
export type { FeedbackByPageItem } from './feedback-store.js';
export type { PageTrafficItem } from './page-traffic.js';
export { SETTLE_MS } from './rollup-time.js';
export type { SearchItem } from './search-rollup.js';
export { dayKind } from './site-calendar.js';
