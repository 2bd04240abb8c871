// Reads everything the report shows, with the SQL in sql/report/ written over the public views, so a
// user can reproduce every number with the same views. Values are converted to plain JS here
// (DOUBLE → number, TIMESTAMPTZ → Date), so rendering never sees DuckDB types. Each view is read
// once: the headline counts, the daily series and the categories are sums of one query's rows
// (daily_category_breakdown per day and category), which keeps the report near one scan per view.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { FatalError } from '../../core/errors.js';
import { sqlFile } from '../../warehouse/sql-files.js';
import type { ReportPeriod } from './period.js';
import { readGapTopics, type GapTopicRow } from './gap-topics-data.js';

/** The views the report reads: a warehouse last written by an older docs-etl may lack some. */
export const REPORT_VIEWS = [
  'daily_category_breakdown', 'daily_unanswered_questions', 'daily_unanswered_by_page',
  'daily_cited_sources', 'threads', 'latest_site_pages', 'pages_never_cited', 'freshness', 'page_gaps_daily',
] as const;

export const LIMITS = { questions: 50, pages: 30, pageGaps: 30, sources: 30, neverCited: 100, runs: 10 } as const;

export interface Totals { turns: number; unanswered: number; clarifyingQuestions: number; conversations: number }
export interface DayRow { day: string; turns: number; unanswered: number }
export interface CategoryDayRow { day: string; category: string; turns: number; unanswered: number; clarifyingQuestions: number }
export interface CategoryRow { category: string; turns: number; unanswered: number; previousTurns: number; previousUnanswered: number }
export interface QuestionRow { projectId: string; question: string; timesAsked: number; lastAskedAt: Date; exampleQuery: string; topPagePath: string; pages: number }
export interface PageRow { projectId: string; pagePath: string; title: string | null; turns: number; unanswered: number }
export interface PageGapRow {
  projectId: string; path: string; views: number; viewsAi: number; visitors: number; thumbsUp: number; thumbsDown: number;
  turns: number; unanswered: number; lowCtrSearches: string[]; lowCtrHits: number;
}
export interface SourceRow { projectId: string; url: string; title: string; citations: number; citationsInUnanswered: number; lastCitedAt: Date }
export interface Inventory { pages: number; domains: number; exportedAt: Date | null; neverCited: number }
export interface NeverCitedRow { domain: string; path: string; title: string | null; bytes: number }
export interface FreshnessRow {
  projectId: string; pipeline: string; headAt: Date | null; settledTo: Date | null; lastRunAt: Date | null;
  lastFinishedAt: Date | null; lastStatus: string | null; lastError: string | null; quarantined: number;
}
export interface RunRow {
  projectId: string; pipeline: string; status: string; startedAt: Date; finishedAt: Date | null;
  requests: number; rowsUpserted: number; rowsQuarantined: number; error: string | null;
}

export interface ReportData {
  /** Projects in the report (one with --project, else every project the warehouse knows). */
  projects: string[];
  /** Day of the newest turn of those projects (in their zone); null when they have none. */
  newestDay: string | null;
  current: Totals;
  previous: Totals;
  daily: DayRow[];
  categoryDaily: CategoryDayRow[];
  categories: CategoryRow[];
  questions: QuestionRow[];
  pages: PageRow[];
  /** Pages to improve (page_gaps_daily); `trafficLoaded`: a per-page export was loaded at all. */
  pageGaps: PageGapRow[];
  trafficLoaded: boolean;
  sources: SourceRow[];
  inventory: Inventory;
  neverCited: NeverCitedRow[];
  freshness: FreshnessRow[];
  runs: RunRow[];
  /**
   * Complete days of each source loaded in the period (today left out) and in the period before
   * (coverage_days); a source with no stream is absent.
   */
  coverage: CoverageRow[];
  /** Days of the period whose assistant turns are not loaded (coverage_days 'missing'); today is never listed. */
  daysNotLoaded: string[];
  /** The biggest gap topics (null: the snapshot predates them). */
  gapTopics: GapTopicRow[] | null;
}

export interface CoverageRow { pipeline: string; loaded: number; prevLoaded: number }

type Row = Record<string, unknown>;

async function rows(conn: DuckDBConnection, file: string, params: Record<string, DuckDBValue>): Promise<Row[]> {
  const sql = sqlFile(`report/${file}.sql`);
  // Only the parameters a statement names may be bound.
  const used = Object.fromEntries(Object.entries(params).filter(([k]) => new RegExp(`\\$${k}\\b`).test(sql)));
  return (await conn.runAndReadAll(sql, used)).getRowObjectsJS() as Row[];
}

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const str = (v: unknown): string => String(v ?? '');
const optStr = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const date = (v: unknown): Date | null => (v instanceof Date ? v : v === null || v === undefined ? null : new Date(String(v)));

export interface Scope {
  /** Every project the warehouse knows, its time zone and the day (in it) of its newest turn (null: none yet). */
  known: { projectId: string; timeZone: string; newestDay: string | null }[];
}

export async function readScope(conn: DuckDBConnection): Promise<Scope> {
  const present = new Set(
    (await conn.runAndReadAll('SELECT view_name FROM duckdb_views() WHERE NOT internal')).getRows().map((r) => String(r[0])),
  );
  const missing = REPORT_VIEWS.filter((v) => !present.has(v));
  if (missing.length) {
    throw new FatalError(`the warehouse has no view ${missing.join(', ')}: it was last written by an older docs-etl; run \`docs-etl sync\` once to update its views`);
  }
  const known = (await rows(conn, 'scope', {})).map((r) => ({ projectId: str(r.project_id), timeZone: str(r.timezone), newestDay: optStr(r.newest_day) }));
  return { known };
}

function sum(list: CategoryDayRow[], pick: (r: CategoryDayRow) => number): number {
  return list.reduce((n, r) => n + pick(r), 0);
}

/** Headline counts, daily series and per-category totals from the rows of category-days.sql. */
function fromCategoryDays(all: CategoryDayRow[], period: ReportPeriod) {
  const current = all.filter((r) => r.day >= period.from);
  const previous = all.filter((r) => r.day < period.from);
  const totals = (list: CategoryDayRow[]) => ({
    turns: sum(list, (r) => r.turns), unanswered: sum(list, (r) => r.unanswered), clarifyingQuestions: sum(list, (r) => r.clarifyingQuestions),
  });
  const byDay = new Map<string, DayRow>();
  for (const r of current) {
    const d = byDay.get(r.day) ?? { day: r.day, turns: 0, unanswered: 0 };
    d.turns += r.turns;
    d.unanswered += r.unanswered;
    byDay.set(r.day, d);
  }
  const byCategory = new Map<string, CategoryRow>();
  for (const r of all) {
    const c = byCategory.get(r.category) ?? { category: r.category, turns: 0, unanswered: 0, previousTurns: 0, previousUnanswered: 0 };
    if (r.day >= period.from) {
      c.turns += r.turns;
      c.unanswered += r.unanswered;
    } else {
      c.previousTurns += r.turns;
      c.previousUnanswered += r.unanswered;
    }
    byCategory.set(r.category, c);
  }
  return {
    current: totals(current),
    previous: totals(previous),
    daily: [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1)),
    categoryDaily: current,
    categories: [...byCategory.values()].sort((a, b) => b.turns - a.turns || (a.category < b.category ? -1 : 1)),
  };
}

export async function readReportData(conn: DuckDBConnection, scope: Scope, projectId: string | null, period: ReportPeriod): Promise<ReportData> {
  const p: Record<string, DuckDBValue> = {
    project: projectId, from: period.from, to: period.to, prev_from: period.prevFrom, prev_to: period.prevTo,
  };
  const inScope = scope.known.filter((k) => projectId === null || k.projectId === projectId);
  const newest = inScope.map((k) => k.newestDay).filter((d): d is string => d !== null).sort().at(-1) ?? null;
  const days = fromCategoryDays((await rows(conn, 'category-days', p)).map((r) => ({
    day: str(r.day), category: str(r.category), turns: num(r.turns), unanswered: num(r.unanswered), clarifyingQuestions: num(r.clarifying_questions),
  })), period);
  const started = await rows(conn, 'conversations', p);
  const conversations = (which: string) => num(started.find((r) => r.period === which)?.conversations);
  const inventory = (await rows(conn, 'inventory', {}))[0] ?? {};
  // pages_never_cited scans every source: only asked when there is an inventory to compare with.
  const never = num(inventory.pages) > 0 ? await rows(conn, 'never-cited', { limit: LIMITS.neverCited }) : [];
  const inv: Inventory = {
    pages: num(inventory.pages), domains: num(inventory.domains), exportedAt: date(inventory.exported_at), neverCited: num(never[0]?.total),
  };
  return {
    projects: inScope.map((k) => k.projectId),
    newestDay: newest,
    current: { ...days.current, conversations: conversations('current') },
    previous: { ...days.previous, conversations: conversations('previous') },
    daily: days.daily,
    categoryDaily: days.categoryDaily,
    categories: days.categories,
    questions: (await rows(conn, 'top-questions', { ...p, limit: LIMITS.questions })).map((r) => ({
      projectId: str(r.project_id), question: str(r.question), timesAsked: num(r.times_asked), lastAskedAt: date(r.last_asked_at)!,
      exampleQuery: str(r.example_query), topPagePath: str(r.top_page_path), pages: num(r.pages),
    })),
    pages: (await rows(conn, 'pages', { ...p, limit: LIMITS.pages })).map((r) => ({
      projectId: str(r.project_id), pagePath: str(r.page_path), title: optStr(r.title), turns: num(r.turns), unanswered: num(r.unanswered),
    })),
    pageGaps: (await rows(conn, 'page-gaps', { ...p, limit: LIMITS.pageGaps })).map((r) => ({
      projectId: str(r.project_id), path: str(r.path), views: num(r.views), viewsAi: num(r.views_ai), visitors: num(r.visitors),
      thumbsUp: num(r.thumbs_up), thumbsDown: num(r.thumbs_down), turns: num(r.turns), unanswered: num(r.unanswered),
      lowCtrSearches: Array.isArray(r.low_ctr_searches) ? r.low_ctr_searches.map(str) : [], lowCtrHits: num(r.low_ctr_hits),
    })),
    trafficLoaded: Boolean((await rows(conn, 'traffic-loaded', p))[0]?.loaded),
    sources: (await rows(conn, 'sources', { ...p, limit: LIMITS.sources })).map((r) => ({
      projectId: str(r.project_id), url: str(r.url), title: str(r.title), citations: num(r.citations),
      citationsInUnanswered: num(r.citations_in_unanswered), lastCitedAt: date(r.last_cited_at)!,
    })),
    inventory: inv,
    neverCited: never.map((r) => ({
      domain: str(r.domain), path: str(r.path), title: optStr(r.title), bytes: num(r.bytes),
    })),
    freshness: (await rows(conn, 'freshness', p)).map((r) => ({
      projectId: str(r.project_id), pipeline: str(r.pipeline), headAt: date(r.head_at), settledTo: date(r.settled_to),
      lastRunAt: date(r.last_run_at), lastFinishedAt: date(r.last_finished_at), lastStatus: optStr(r.last_status),
      lastError: optStr(r.last_error), quarantined: num(r.quarantined),
    })),
    daysNotLoaded: (await rows(conn, 'days-loaded', p)).filter((r) => r.loaded === false && str(r.day) !== period.to).map((r) => str(r.day)),
    coverage: (await rows(conn, 'coverage', p)).map((r) => ({ pipeline: str(r.pipeline), loaded: num(r.loaded), prevLoaded: num(r.prev_loaded) })),
    runs: (await rows(conn, 'recent-runs', { ...p, limit: LIMITS.runs })).map((r) => ({
      projectId: str(r.project_id), pipeline: str(r.pipeline), status: str(r.status), startedAt: date(r.started_at)!,
      finishedAt: date(r.finished_at), requests: num(r.requests), rowsUpserted: num(r.rows_upserted),
      rowsQuarantined: num(r.rows_quarantined), error: optStr(r.error),
    })),
    gapTopics: await readGapTopics(conn, projectId, period),
  };
}
