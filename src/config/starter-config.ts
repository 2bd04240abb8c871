// The commented starter config `docs-etl init` writes. It is JSON with comments (jsonc.ts): the
// explanation sits next to each field, and the file loads as it is (a test keeps it valid).

export const DEFAULT_CONFIG_FILE = 'docs-etl.config.json';

export const STARTER_CONFIG = `// docs-etl configuration: JSON with comments. Check it with: docs-etl doctor --config <this file>
// Flags win over environment variables, which win over this file. API keys never go here: each
// project names the environment variable that holds its organization's admin key.
{
  // The DuckDB warehouse (created by the first sync). DOCS_ETL_WAREHOUSE or --warehouse win.
  "warehouse": "state/warehouse.duckdb",

  // The API. To try docs-etl without a key, run \`docs-etl sandbox\` and put its URL here.
  "baseUrl": "https://api.mintlify.com",

  // When recent data is read again to catch late arrivals and later changes: a recheck 3 h after
  // an interval ends (waiting up to 2 h more to fill pages), a final settle read 24 h after.
  // Durations always name their unit: ms, s, m, h, d (e.g. "90m", "1h30m").
  "rereads": "3h+2h,24h+6h",

  // The API allows 100 requests per organization per hour, across projects and processes.
  "rateLimit": "100/1h",

  // The longest a sync waits for budget; beyond it, it stops at a checkpoint (exit 3) and the
  // next run continues.
  "maxWait": "15m",

  "projects": [
    {
      // The project id, from the dashboard's API keys page.
      "id": "your-project-id",
      // The environment variable that holds this organization's admin key (mint_…).
      // Projects whose variables hold the same key share one rate budget.
      "apiKeyEnv": "DOCS_API_KEY",
      // Days in the views (daily_unanswered_rate) are counted in this IANA time zone.
      "timezone": "UTC"
      // First sync only: backfill from this date instead of all history. A date or time
      // without an offset is UTC. Uncomment (and add a comma above) to use it:
      // "from": "2026-01-01"
    }
  ]
}
`;
