// The local twin of the analytics and static export API (used by the demo, the tests and
// `docs-etl sandbox`). See server.ts for the routes and analytics-gateway.ts for the contract rules.
export { DEMO_API_KEY, DEMO_PROJECT_ID, type FaultKind, type SandboxOptions } from './options.js';
export { defaultSandboxOptions } from './defaults.js';
export { startSandbox, type Sandbox } from './server.js';
export { FAULT_KINDS } from './faults.js';
export type { LoggedRequest } from './request-log.js';
export type { StaticExportHandler } from './static-export/handler.js';
