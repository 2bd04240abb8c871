// `npm run bench`: the full-sync bench (full-sync-bench.ts) by default; `--scenario day`: the
// virtual-day scenario of the request planner (day-main.ts); `--scenario topics`: the gap topic step
// (topics-bench.ts); `--scenario topics-sync`: whole hourly syncs around it (topics-sync-bench.ts). Each prints tables, then one JSON line.
import { parseBenchArgs } from './bench-args.js';
import { dayScenarioMain } from './day-main.js';
import { fullSyncBench } from './full-sync-bench.js';
import { topicsBench } from './topics-bench.js';
import { topicsQualityBench } from './topics-quality.js';
import { topicsSyncBench } from './topics-sync-bench.js';

const args = parseBenchArgs(process.argv);
if (args.scenario === 'day') await dayScenarioMain(args);
else if (args.scenario === 'topics') await topicsBench(args);
else if (args.scenario === 'topics-sync') await topicsSyncBench(args);
else if (args.scenario === 'topics-quality') await topicsQualityBench();
else await fullSyncBench(args);
