/** The page's look: system fonts, one accent, status colours that also read in grey (text labels, not colour alone). */
export const pageStyle = `
:root { --fg: #1d232b; --muted: #66707c; --line: #e3e6ea; --bg: #f6f7f9; --card: #fff; --good: #17794a; --good-bg: #e4f4ea; --bad: #b3261e; --bad-bg: #fbe7e5; --accent: #2f5fb3; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1500px; margin: 0 auto; padding: 24px 28px 60px; }
header { margin-bottom: 8px; }
.brand { color: var(--accent); font-weight: 600; letter-spacing: .04em; text-transform: uppercase; font-size: 12px; }
h1 { margin: 2px 0 4px; font-size: 26px; }
h2 { font-size: 17px; margin: 0 0 10px; }
h3 { font-size: 15px; margin: 0 0 8px; text-transform: capitalize; }
h4 { font-size: 12px; margin: 14px 0 4px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; margin: 14px 0; }
.muted { color: var(--muted); }
.good-text { color: var(--good); }
.bad-text { color: var(--bad); }
.verdict { border-radius: 6px; padding: 10px 14px; font-size: 15px; }
.verdict strong { font-size: 20px; letter-spacing: .03em; margin-right: 4px; }
.verdict.good { background: var(--good-bg); color: var(--good); }
.verdict.bad { background: var(--bad-bg); color: var(--bad); }
.verdict.unsure { background: #fdf3d8; color: #7a5600; }
.checks { list-style: none; padding: 0; margin: 12px 0 0; }
.checks li { display: flex; gap: 10px; padding: 5px 0; border-top: 1px solid var(--line); align-items: baseline; }
.checks .mark { font-weight: 700; width: 1em; }
.checks .ok .mark { color: var(--good); }
.checks .no .mark { color: var(--bad); }
.checks .rule { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 0 6px; white-space: nowrap; }
.lead { font-size: 15px; }
.integrity { border-radius: 6px; padding: 6px 10px; margin: 0 0 10px; }
.integrity.contained { background: var(--good-bg); color: var(--good); }
.integrity.trusted { background: var(--bad-bg); color: var(--bad); }
.integrity-label { font-weight: 600; margin: 0; }
.integrity ul { margin: 2px 0; padding-left: 18px; }
.integrity-note { margin: 2px 0 0; font-size: 12px; color: var(--fg); }
dl.identity { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 0; }
dl.identity dt { color: var(--muted); }
dl.identity dd { margin: 0; overflow-wrap: anywhere; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; max-height: 420px; overflow: auto; }
.sides { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 14px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; }
.big { font-size: 22px; font-weight: 600; margin: 0 0 8px; }
.problems { color: var(--bad); margin: 8px 0 0; padding-left: 18px; }
.controls { display: flex; gap: 10px; align-items: center; margin-bottom: 10px; flex-wrap: wrap; }
.controls select, .controls input { font: inherit; padding: 4px 8px; border: 1px solid #c9ced5; border-radius: 5px; background: #fff; }
.controls input { width: 220px; }
.hint { margin-left: auto; font-size: 12px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
table.small { width: auto; margin: 6px 0; }
th, td { padding: 5px 8px; text-align: left; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; background: #fafbfc; white-space: nowrap; }
th.group { text-align: center; color: var(--fg); text-transform: capitalize; border-left: 2px solid var(--line); }
th.first, td.first { border-left: 2px solid var(--line); }
th.sortable { cursor: pointer; user-select: none; }
th.sortable:hover { color: var(--accent); }
th[aria-sort=ascending]::after { content: " ▲"; }
th[aria-sort=descending]::after { content: " ▼"; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.task { cursor: pointer; }
tr.task:hover { background: #f0f4fb; }
tr.task.open { background: #eaf0fa; }
tr.more td { text-align: center; padding: 10px; }
tr.task:focus { outline: 2px solid var(--accent); outline-offset: -2px; }
td.id { white-space: nowrap; font-weight: 500; }
.caret { display: inline-block; width: 1.1em; color: var(--muted); }
td.grade { max-width: 180px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: var(--muted); font-size: 12px; }
td.idx { color: var(--muted); }
.pill { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; }
.pill.passed { background: var(--good-bg); color: var(--good); }
.pill.failed { background: var(--bad-bg); color: var(--bad); }
.reason { margin-left: 6px; font-size: 12px; color: var(--bad); }
tr.detail > td { background: #fbfcfd; padding: 12px; }
.panes { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 14px; }
.pane { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px; min-width: 0; }
.transcript { list-style: none; padding: 0; margin: 0; }
.msg { border-left: 3px solid var(--line); padding: 4px 0 4px 10px; margin: 6px 0; }
.msg.assistant { border-color: var(--accent); }
.msg.user { border-color: #8a63d2; }
.msg.tool { border-color: #c9ced5; }
.msg.tool.error { border-color: var(--bad); }
.meta { display: flex; gap: 8px; font-size: 12px; }
.role { font-weight: 600; text-transform: uppercase; font-size: 11px; letter-spacing: .04em; }
.role.assistant { color: var(--accent); }
.role.user { color: #6a46b5; }
.call { margin: 3px 0; }
.call .fn { font-weight: 600; margin-right: 6px; font-size: 12px; }
.call code { background: var(--bg); padding: 1px 4px; border-radius: 3px; overflow-wrap: anywhere; }
summary { cursor: pointer; color: var(--muted); font-size: 12px; }
details.journal { margin-top: 10px; }
.journal-table td { border-bottom: 1px solid #f0f1f3; padding: 2px 6px; }
.jtype { font-weight: 600; font-size: 12px; white-space: nowrap; }
.charts { display: flex; flex-wrap: wrap; gap: 12px 24px; margin: 12px 0; }
figure.chart { margin: 0; }
figure.chart figcaption { font-size: 12px; }
#power { margin: 8px 0; }
.family td, .family th { vertical-align: top; max-width: 360px; }
.pill.unsure { background: #fef3c7; color: #92400e; }
.chart-title { font-size: 12px; margin: 4px 0; color: var(--muted); }
.markdown h3, .markdown h4 { margin: 12px 0 6px; }
.markdown table { margin: 8px 0; }
`;
