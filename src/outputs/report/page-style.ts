// The report's stylesheet (inlined). System fonts only: a font file would be a request.
export const PAGE_STYLE = `
:root { color-scheme: light; --fg: #1d2433; --muted: #5b6577; --line: #dde2ea; --bg: #ffffff; --panel: #f6f8fb;
  --bad: #c0392b; --good: #1e8449; --warn: #b9770e; --accent: #2f5fb3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
header.top { padding: 20px 32px 12px; border-bottom: 1px solid var(--line); background: var(--panel); }
header.top h1 { margin: 0 0 4px; font-size: 22px; }
header.top .meta { color: var(--muted); }
main { padding: 8px 32px 48px; max-width: 1200px; }
section { margin-top: 28px; }
h2 { font-size: 18px; margin: 0 0 6px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
p.intro { color: var(--muted); margin: 0 0 12px; }
code { font: 12px/1.3 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--panel); padding: 1px 4px; border-radius: 3px; }
.metrics { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 12px; }
.metric { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; background: var(--panel); }
.metric .label { color: var(--muted); font-size: 13px; }
.metric .value { font-size: 28px; font-weight: 600; margin: 2px 0; }
.metric .detail { color: var(--muted); font-size: 12px; }
.metric .change { font-size: 13px; margin-top: 4px; }
.metric .change.worse { color: var(--bad); }
.metric .change.better { color: var(--good); }
.metric .change .vs { color: var(--muted); }
.charts { display: grid; grid-template-columns: 1fr; gap: 16px; }
figure.chart { margin: 0; padding: 10px 12px; border: 1px solid var(--line); border-radius: 8px; overflow-x: auto; }
figure.chart figcaption { font-weight: 600; margin-bottom: 6px; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
td { overflow-wrap: anywhere; }  /* long paths, URLs and words wrap: a table fits a 1400 px window */
td code { overflow-wrap: anywhere; word-break: break-word; }
table[data-table="page-gaps"] th, table[data-table="page-gaps"] td { padding: 4px 4px; font-size: 11px; }
table[data-table="gap-topics"] th, table[data-table="gap-topics"] td { padding: 5px 6px; font-size: 13px; }
table[data-table="gap-topics"] th[data-type="number"] { white-space: normal; }
th { overflow-wrap: break-word; }
td.num, th[data-type="number"] { text-align: right; white-space: nowrap; }
tbody tr:last-child td { border-bottom: none; }
tbody tr:hover { background: var(--panel); }
th { background: var(--panel); font-weight: 600; }
th button { all: unset; cursor: pointer; }
th button::after { content: " \\2195"; color: #aab; }
th[aria-sort="ascending"] button::after { content: " \\25B2"; color: var(--accent); }
th[aria-sort="descending"] button::after { content: " \\25BC"; color: var(--accent); }
th button:focus-visible { outline: 2px solid var(--accent); }
.question { white-space: pre-wrap; word-break: break-word; }
.more, .url, .title { color: var(--muted); font-size: 12px; }
.url { word-break: break-all; }
.no-rows { color: var(--muted); font-style: italic; }
.empty-state { border: 2px dashed var(--line); border-radius: 10px; padding: 24px; background: var(--panel); }
.empty-state h2 { font-size: 20px; }
aside.stale { margin-top: 16px; border-left: 4px solid var(--warn); background: #fdf6e7; padding: 10px 14px; }
aside.stale ul { margin: 6px 0 0; }
ul.caveats { margin: 0 0 10px; padding-left: 18px; color: var(--warn); font-size: 13px; }
.topic-terms { font-size: 12px; color: var(--accent); margin-top: 2px; }
ul.examples { margin: 4px 0 0; padding-left: 18px; font-size: 12px; color: var(--muted); }
.status.ok { color: var(--good); } .status.warn { color: var(--warn); } .status.bad { color: var(--bad); }
footer { color: var(--muted); font-size: 12px; padding: 16px 32px 32px; border-top: 1px solid var(--line); }
@media print { th button::after { content: ""; } figure.chart, .metric { break-inside: avoid; } }
`;
