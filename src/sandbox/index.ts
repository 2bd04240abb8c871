// The local twin of the analytics and static export API (used by the demo, the tests and
// `docs-etl sandbox`). See server.ts for the routes and analytics-gateway.ts for the contract rules.
//
// Data: a `conversations` history (static, served in an order unrelated to time), optionally live
// arrivals (`live`), or steady `traffic` (R turns a day over `historyDays` before start and on as
// the clock advances, with late arrivals and later changes). Every record is rendered on demand
// from (seed, project, conversation, turn) and compact per-turn columns, so millions of turns fit
// in ~30 bytes each; the same seed and the same clock give the same data.
//
// Ground truth for tests and harnesses, on the Sandbox object:
//   truth(projectId)                   full records (parsed), served order; fine for small sets
//   malformed(projectId)               the malformed records, as served
//   truthKeys(projectId, {fromMs, toMs}?)  columns {count, id[], timestampMs, visibleAt,
//                                       queryCategory[], resolutionStatus[]} of the valid turns
//                                       visible now, current version: for millions of turns
//   visibleCount(projectId, atMs?, {fromMs, toMs}?)  valid turns visible at an instant
// and over HTTP (loopback, test-only): /__sandbox/truth?projectId=X[&compact=1&from=MS&to=MS],
// /__sandbox/visible-count?projectId=X[&at=MS] (test-routes.ts).
export {
  DEMO_API_KEY, DEMO_PROJECT_ID, type ArrivalBand, type FaultKind, type SandboxOptions, type TrafficOptions,
} from './options.js';
export { defaultSandboxOptions } from './defaults.js';
export { DEFAULT_TRAFFIC_MODEL, trafficOptions, trafficProblems } from './arrival-models.js';
export { startSandbox, type Sandbox } from './server.js';
export { FAULT_KINDS } from './faults.js';
export type { LoggedRequest } from './request-log.js';
export type { TruthKeys, TruthRange } from './truth-keys.js';
export type { StaticExportHandler } from './static-export/handler.js';
