// DuckDB's own quoting (`quotedIdentifier`, `quotedString` of `@duckdb/node-api`), from the
// package's pure-JS file. The package's index loads the native binding (181 modules, about 0.4 s of
// CPU), and the declarations and the config's grammar, which quote identifiers, are read by every
// CLI process, a usage error included: they must not load the engine to quote a name. The one home
// of SQL quoting: every module quotes through this file.
export { quotedIdentifier, quotedString } from '@duckdb/node-api/lib/sql.js';
