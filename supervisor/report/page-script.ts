/**
 * The page's behaviour, plain ES2020 run by the browser: it reads the embedded JSON and builds the page with DOM nodes.
 * Every value reaches the page as a text node or an attribute, never as markup, so recorded text cannot inject any.
 * Transcripts and journals are parsed only when a task is opened, and the task table holds only the rows scrolled to
 * (a page of them at a time, more as the last comes into view), so ten thousand tasks open and filter fast.
 */
export const pageScript = String.raw`
(function () {
	'use strict';
	var started = performance.now();
	var data = JSON.parse(document.getElementById('hlab-data').textContent);
	var comparison = data.kind === 'comparison';
	var family = data.family;

	function h(tag, props) {
		var node = document.createElement(tag);
		if (props) for (var key in props) {
			var value = props[key];
			if (value === null || value === undefined) continue;
			if (key === 'text') node.textContent = String(value);
			else if (key === 'cls') node.className = value;
			else if (key === 'on') for (var type in value) node.addEventListener(type, value[type]);
			else node.setAttribute(key, String(value));
		}
		for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
		return node;
	}
	function append(node, child) {
		if (child === null || child === undefined || child === false) return;
		if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
		node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
	}
	function num(value) { return value === null || value === undefined ? '—' : Number(value).toLocaleString('en-US'); }
	function ms(value) { return value === null || value === undefined ? '—' : value >= 10000 ? (value / 1000).toFixed(1) + ' s' : Math.round(value).toLocaleString('en-US') + ' ms'; }
	function signed(value, digits) { return value === null || value === undefined ? '—' : (value > 0 ? '+' : '') + value.toFixed(digits); }
	function json(value) { return typeof value === 'string' ? value : JSON.stringify(value); }
	function short(digest) { return typeof digest === 'string' ? digest.replace(/^sha256:/, '').slice(0, 12) : '—'; }
	function section(title, id) { return h('section', {id: id}, h('h2', {text: title})); }

	function header() {
		var title = comparison ? 'Comparison' : family ? 'Candidates against one baseline' : 'Attempt';
		var sub = data.sides.map(function (side) { return side.label + ' ' + side.attempt_id; }).join(' · ');
		return h('header', null, h('div', {cls: 'brand', text: 'harness-lab'}), h('h1', {text: title}), h('p', {cls: 'muted', text: sub + ' · page made ' + data.generated_at}));
	}

	// Every candidate of one family decision in a column of its own, beside the others, then a chart per statistic each.
	function familySection() {
		var out = section('Decision', 'decision');
		var names = {turns: 'turns', total_tokens: 'tokens', wall_ms: 'duration (ms)'};
		var level = family.confidence === null ? null : Math.round(family.confidence * 1000) / 10 + '%';
		out.appendChild(h('div', {cls: 'verdict ' + (family.accepted.length ? 'good' : 'unsure'), id: 'verdict'}, h('strong', {text: family.accepted.length + ' OF ' + family.candidates.length + ' ACCEPTED'}), family.family_size ? ' · Holm\'s correction over ' + family.family_size + ' p-values' + (level ? ' at ' + level : '') : ' · no p-values to correct (the rule has no min_confidence)'));
		var p = function (value) { return value === null || value === undefined ? '—' : value < 0.0001 ? value.toExponential(2) : value.toPrecision(3); };
		var interval = function (c, metric) {
			var d = c.statistics && c.statistics.differences.filter(function (x) { return x.metric === metric; })[0];
			return !d || d.low === null ? '—' : signed(d.mean_difference, 2) + ' [' + signed(d.low, 2) + ', ' + signed(d.high, 2) + ']' + (d.clustered ? ' by task' : '');
		};
		var rows = [
			['verdict', function (c) { return h('span', {cls: 'pill ' + (c.verdict === 'accept' ? 'passed' : c.verdict === 'reject' ? 'failed' : 'unsure'), text: c.verdict}); }],
			['alone', function (c) { return c.alone; }],
			['p-value', function (c) { return p(c.p_value); }],
			['Holm-adjusted', function (c) { return p(c.adjusted_p_value); }],
			['passed', function (c) { return c.totals ? c.totals.passed + ' / ' + c.totals.tasks : '—'; }],
			['pass/fail pairs', function (c) { var pf = c.statistics && c.statistics.pass_fail; return pf ? '+' + pf.candidate_only + ' / −' + pf.baseline_only + ', p ' + p(pf.p_value) : '—'; }],
			['turns', function (c) { return interval(c, 'turns'); }],
			['tokens', function (c) { return interval(c, 'total_tokens'); }],
			['duration (ms)', function (c) { return interval(c, 'wall_ms'); }],
			['what to do', function (c) { return c.insufficient ? c.insufficient.message : c.verdict === 'insufficient' ? 'accepted alone, but not once corrected for the family: more trials or fewer candidates' : '—'; }],
			['failed checks', function (c) { var failed = c.checks.filter(function (x) { return !x.satisfied; }); return failed.length ? h('ul', {cls: 'checks'}, failed.map(function (x) { return h('li', {cls: 'no'}, h('span', {cls: 'rule', text: x.rule}), h('span', {text: x.message})); })) : 'none'; }],
		];
		out.appendChild(h('div', {cls: 'scroll'}, h('table', {cls: 'small family', id: 'family'},
			h('thead', null, h('tr', null, h('th', {text: 'candidate'}), family.candidates.map(function (c) { return h('th', {text: c.candidate}); }))),
			h('tbody', null, rows.map(function (r) { return h('tr', {'data-row': r[0]}, h('th', {text: r[0]}), family.candidates.map(function (c) { return h('td', null, r[1](c)); })); })))));
		out.appendChild(h('p', {cls: 'muted', text: 'Baseline ' + family.baseline + '. Intervals: mean paired difference (candidate − baseline) and its interval; "by task": the repeats were resampled by task.'}));
		var metrics = ['turns', 'total_tokens', 'wall_ms'];
		out.appendChild(h('div', {cls: 'family-charts'}, metrics.map(function (metric) {
			return h('div', {cls: 'charts', 'data-metric': metric}, family.candidates.map(function (c, index) {
				var chart = c.charts.filter(function (x) { return x.metric === metric; })[0];
				var d = c.statistics && c.statistics.differences.filter(function (x) { return x.metric === metric; })[0];
				return h('div', null, h('div', {cls: 'chart-title', text: 'candidate ' + (index + 1) + ': ' + c.candidate.split('/').slice(-2).join('/')}), differenceChart(names[metric], chart ? chart.tasks : [], d, level || '95%'));
			}));
		})));
		return out;
	}

	function decisionSection() {
		if (family) return familySection();
		var out = section(comparison ? 'Decision' : 'Result', 'decision');
		if (!comparison) {
			var side = data.sides[0];
			out.appendChild(h('div', {cls: 'verdict ' + (side.passed ? 'good' : 'bad')}, h('strong', {text: side.passed ? 'PASSED' : 'DID NOT PASS'}), ' ', side.totals.passed + ' of ' + side.totals.tasks + ' tasks passed · ' + side.completion));
			if (side.problems.length) out.appendChild(h('ul', {cls: 'checks'}, side.problems.map(function (p) { return h('li', {cls: 'no'}, h('span', {cls: 'mark', text: '✗'}), p); })));
			return out;
		}
		var d = data.decision;
		if (d === null) { out.appendChild(h('p', {text: 'No decision file was given.'})); return out; }
		// Each verdict as itself: revise and insufficient are neither an acceptance nor a rejection.
		var tone = {accept: 'good', reject: 'bad', revise: 'unsure', insufficient: 'unsure'}[d.decision] || 'bad';
		out.appendChild(h('div', {cls: 'verdict ' + tone, id: 'verdict'}, h('strong', {text: d.decision.toUpperCase()}), d.decision === 'insufficient' ? ' evidence for the candidate' : ' the candidate', d.duration_ratio === null ? '' : ' · duration ratio ' + d.duration_ratio.toFixed(2) + 'x', ' · decided ' + d.decided_at));
		if (d.insufficient) out.appendChild(h('p', {cls: 'lead', id: 'insufficient'}, h('strong', {text: d.insufficient.more_trials_per_task === null ? 'Add tasks: ' : 'Run ' + d.insufficient.more_trials_per_task + ' more trials per task: '}), d.insufficient.message));
		out.appendChild(h('ul', {cls: 'checks'}, d.checks.map(function (check) {
			return h('li', {cls: check.satisfied ? 'ok' : 'no'}, h('span', {cls: 'mark', text: check.satisfied ? '✓' : '✗'}), h('span', {cls: 'rule', text: check.rule}), h('span', {text: check.message}));
		})));
		return out;
	}

	function precise(value) { return value == null ? '—' : Number(value.toPrecision(3)).toLocaleString('en-US'); }

	function statisticsSection() {
		var s = data.statistics;
		if (!s) return null;
		var out = section('Paired statistics', 'statistics');
		var pf = s.pass_fail;
		var level = Math.round(s.confidence * 1000) / 10 + '%';
		var test = pf.clustered ? 'exact sign-flip test over tasks, the trials of a task flipped together' : 'exact two-sided sign test';
		out.appendChild(h('p', {cls: 'lead', id: 'pass-fail'}, h('strong', {text: pf.significant ? 'Significant' : 'Not significant'}), ' at ' + level + ': of ' + pf.pairs + ' paired trials, the candidate alone passed ' + pf.candidate_only + ' and the baseline alone ' + pf.baseline_only + ' (' + test + ', p = ' + (pf.p_value < 0.0001 ? pf.p_value.toExponential(2) : pf.p_value.toFixed(4)) + ').'));
		var power = powerLine();
		if (power) out.appendChild(power);
		var names = {turns: 'turns', total_tokens: 'tokens', wall_ms: 'duration (ms)'};
		out.appendChild(h('table', {cls: 'small'}, h('thead', null, h('tr', null, ['difference (candidate − baseline)', 'mean', level + ' interval', 'pairs used', 'left out (unknown)', 'resampled', 'cluster-robust SE', 'variance between / within tasks'].map(function (t) { return h('th', {text: t}); }))),
			h('tbody', null, s.differences.map(function (d) {
				// Decisions from before the clustered intervals have none of the last three.
				var resampled = d.clustered == null ? '—' : d.clustered ? 'tasks (' + d.tasks + ')' : 'entries';
				var spread = d.between_task == null && d.within_task == null ? '—' : precise(d.between_task) + ' / ' + precise(d.within_task);
				return h('tr', null, h('td', {text: names[d.metric] || d.metric}), h('td', {cls: 'n', text: signed(d.mean_difference, 1)}), h('td', {cls: 'n', text: d.low === null ? '—' : '[' + signed(d.low, 1) + ', ' + signed(d.high, 1) + ']'}), h('td', {cls: 'n', text: d.pairs}), h('td', {cls: 'n', text: d.left_out}), h('td', {cls: 'resampled', text: resampled}), h('td', {cls: 'n', text: precise(d.cluster_se)}), h('td', {cls: 'n', text: spread}));
			}))));
		out.appendChild(h('p', {cls: 'muted', text: 'Seeded percentile bootstrap, seed ' + s.seed + ', ' + s.resamples.toLocaleString('en-US') + ' resamples; with repeats it resamples whole tasks and widens the interval for few tasks. Variance between tasks: how much tasks differ in their mean difference; within: how much the trials of one task differ.'}));
		out.appendChild(h('div', {cls: 'charts'}, data.charts.map(function (chart) {
			var interval = s.differences.filter(function (d) { return d.metric === chart.metric; })[0];
			return differenceChart(names[chart.metric] || chart.metric, chart.tasks, interval, level);
		})));
		if (data.retried.length) out.appendChild(h('div', {id: 'retried'}, h('h3', {text: 'Retried or failed by the infrastructure'}), h('p', {cls: 'muted', text: 'Each entry counts once, as it ran: a rerun never stands in for it.'}),
			h('ul', null, data.retried.map(function (r) { return h('li', {text: r.side + ' ' + r.task_id + ': ' + [r.provider_retries ? r.provider_retries + ' provider retries' : '', r.infrastructure ? 'infrastructure failure' : ''].filter(Boolean).join(', ')}); }))));
		if (s.tasks.some(function (t) { return t.trials > 1; })) {
			out.appendChild(h('table', {cls: 'small'}, h('thead', null, h('tr', null, ['task', 'trials', 'baseline pass rate', 'candidate pass rate'].map(function (t) { return h('th', {text: t}); }))),
				h('tbody', null, s.tasks.map(function (t) {
					return h('tr', null, h('td', {text: t.task}), h('td', {cls: 'n', text: t.trials}), h('td', {cls: 'n', text: t.baseline_passed + '/' + t.trials}), h('td', {cls: 'n', text: t.candidate_passed + '/' + t.trials}));
				}))));
		}
		return out;
	}

	// What the plan could show before it ran: the power it was frozen with, when its rule judges significance.
	function powerLine() {
		var p = data.plan && data.plan.power;
		if (!p) return null;
		var effect = p.detectable_effect === null ? 'no pass-rate gain is found with ' + p.power * 100 + '% power' : 'the smallest pass-rate gain found with ' + p.power * 100 + '% power is ' + p.detectable_effect + ' (from a ' + Math.round(p.baseline_rate * 1000) / 10 + '% baseline pass rate)';
		var pilot = p.pilot ? p.pilot.detectable.map(function (d) { return (d.statistic === 'total_tokens' ? 'tokens' : d.statistic === 'wall_ms' ? 'ms' : d.statistic) + ' ' + (d.detectable_difference === null ? '—' : (d.at_most ? '≤ ' : '') + d.detectable_difference + ' per trial'); }).join(', ') : null;
		return h('p', {id: 'power'}, h('strong', {text: 'Power at freeze: '}), 'over ' + p.tasks + ' tasks × ' + p.trials_per_task + ' trials, ' + effect + '; significance needs at least ' + p.fewest_discordant_pairs + (p.trials_per_task === 1 ? ' discordant pairs' : ' tasks with a net win') + '.' + (pilot ? ' From the pilot, the smallest mean saving found: ' + pilot + '.' : ''));
	}

	var svgNs = 'http://www.w3.org/2000/svg';
	function s_(tag, attrs) {
		var node = document.createElementNS(svgNs, tag);
		for (var key in attrs) if (key === 'text') node.textContent = String(attrs[key]); else node.setAttribute(key, String(attrs[key]));
		for (var i = 2; i < arguments.length; i++) if (arguments[i]) node.appendChild(arguments[i]);
		return node;
	}
	// Per task, each trial's paired difference (a dot) and the task's mean (a bar), over the interval of the mean (the band) and zero.
	function differenceChart(title, tasks, interval, level) {
		var figure = h('figure', {cls: 'chart', 'data-metric': interval ? interval.metric : title});
		var values = [0];
		tasks.forEach(function (t) { values = values.concat(t.differences); });
		if (interval && interval.low !== null) values.push(interval.low, interval.high);
		var low = Math.min.apply(null, values), high = Math.max.apply(null, values);
		if (low === high) { low -= 1; high += 1; }
		var pad = (high - low) * 0.08; low -= pad; high += pad;
		var left = 150, width = 560, row = 18, top = 22, plotW = width - left - 16, height = top + row * Math.max(1, tasks.length) + 26;
		var x = function (v) { return left + (v - low) / (high - low) * plotW; };
		var svg = s_('svg', {width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': title + ': paired differences per task with the ' + level + ' interval'});
		var bottom = top + row * Math.max(1, tasks.length);
		if (interval && interval.low !== null) {
			svg.appendChild(s_('rect', {'class': 'band', x: x(interval.low), y: top - 4, width: Math.max(1, x(interval.high) - x(interval.low)), height: bottom - top + 8, fill: 'rgba(37, 99, 235, 0.15)'}));
			svg.appendChild(s_('line', {x1: x(interval.mean_difference), x2: x(interval.mean_difference), y1: top - 4, y2: bottom + 4, stroke: '#2563eb', 'stroke-width': 2, 'stroke-dasharray': '4 3'}));
		}
		svg.appendChild(s_('line', {x1: x(0), x2: x(0), y1: top - 8, y2: bottom + 4, stroke: '#111827', 'stroke-width': 1}));
		tasks.forEach(function (t, i) {
			var y = top + row * i + row / 2;
			svg.appendChild(s_('text', {x: left - 8, y: y + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#374151', text: t.task.length > 22 ? t.task.slice(0, 21) + '…' : t.task}));
			var mean = t.differences.reduce(function (a, b) { return a + b; }, 0) / t.differences.length;
			svg.appendChild(s_('line', {x1: x(mean), x2: x(mean), y1: y - 6, y2: y + 6, stroke: mean < 0 ? '#15803d' : mean > 0 ? '#b91c1c' : '#6b7280', 'stroke-width': 3}));
			t.differences.forEach(function (d) { svg.appendChild(s_('circle', {cx: x(d), cy: y, r: 3, fill: 'rgba(17, 24, 39, 0.45)'})); });
		});
		[low + pad, 0, high - pad].forEach(function (v, i) {
			if (i !== 1 && Math.abs(v) < (high - low) * 0.05) return;
			svg.appendChild(s_('text', {x: x(v), y: bottom + 18, 'text-anchor': 'middle', 'font-size': 11, fill: '#6b7280', text: signed(v, Math.abs(v) >= 100 ? 0 : 1)}));
		});
		svg.appendChild(s_('text', {x: left, y: 13, 'font-size': 12, 'font-weight': 600, fill: '#111827', text: title + ' (candidate − baseline)'}));
		figure.appendChild(svg);
		figure.appendChild(h('figcaption', {cls: 'muted', text: interval && interval.low !== null ? 'mean ' + signed(interval.mean_difference, 2) + ', ' + level + ' interval [' + signed(interval.low, 2) + ', ' + signed(interval.high, 2) + '] over ' + interval.tasks + ' tasks; dots: trials, bars: task means' : 'no pair with both sides known'}));
		return figure;
	}

	// The Markdown summary a CI job page shows (--summary-md), rendered here from its text: headings, paragraphs,
	// tables, bold, code and links, every piece a text node, so a recorded message cannot become markup.
	function summarySection() {
		if (!data.summary_markdown) return null;
		var out = section('CI summary', 'ci-summary');
		out.appendChild(h('p', {cls: 'muted', text: 'What --summary-md writes (and $GITHUB_STEP_SUMMARY shows), rendered.'}));
		out.appendChild(h('div', {cls: 'markdown'}, markdownBlocks(data.summary_markdown)));
		return out;
	}
	function markdownBlocks(text) {
		var lines = text.split('\n'), nodes = [], i = 0;
		while (i < lines.length) {
			var line = lines[i];
			var heading = /^(#{1,6}) (.*)$/.exec(line);
			if (heading) { nodes.push(h('h' + Math.min(6, heading[1].length + 1), null, inline(heading[2]))); i++; continue; }
			if (/^\|/.test(line) && i + 1 < lines.length && /^\|( ?:?-+:? ?\|)+$/.test(lines[i + 1])) {
				var head = cellsOf(line), body = [];
				i += 2;
				while (i < lines.length && /^\|/.test(lines[i])) { body.push(cellsOf(lines[i])); i++; }
				nodes.push(h('table', {cls: 'small'}, h('thead', null, h('tr', null, head.map(function (c) { return h('th', null, inline(c)); }))), h('tbody', null, body.map(function (r) { return h('tr', null, r.map(function (c) { return h('td', null, inline(c)); })); }))));
				continue;
			}
			if (line.trim() === '') { i++; continue; }
			var para = [];
			while (i < lines.length && lines[i].trim() !== '' && !/^(#{1,6} |\|)/.test(lines[i])) { para.push(lines[i]); i++; }
			nodes.push(h('p', null, inline(para.join(' '))));
		}
		return nodes;
	}
	// A row's cells, split at pipes that are not escaped.
	function cellsOf(line) {
		var cells = [], current = '';
		var inner = line.replace(/^\|/, '').replace(/\|$/, '');
		for (var k = 0; k < inner.length; k++) {
			var ch = inner[k];
			if (ch === '\\' && k + 1 < inner.length) { current += ch + inner[k + 1]; k++; continue; }
			if (ch === '|') { cells.push(current.trim()); current = ''; continue; }
			current += ch;
		}
		cells.push(current.trim());
		return cells;
	}
	function unescape(text) { return text.replace(/\\([\\|\x60*_\[\]()#])/g, '$1').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'); }
	function inline(text) {
		var out = [], pattern = /\x60([^\x60]*)\x60|\*\*(.+?)\*\*|\[([^\]]*)\]\(([^)\s]*)\)/g, last = 0, match;
		while ((match = pattern.exec(text)) !== null) {
			if (match.index > last) out.push(unescape(text.slice(last, match.index)));
			if (match[1] !== undefined) out.push(h('code', {text: unescape(match[1])}));
			else if (match[2] !== undefined) out.push(h('strong', {text: unescape(match[2])}));
			else out.push(h('a', {href: match[4], text: unescape(match[3])}));
			last = pattern.lastIndex;
		}
		if (last < text.length) out.push(unescape(text.slice(last)));
		return out;
	}

	function planSection() {
		var out = section('Plan', 'plan');
		var p = data.plan;
		if (!p) { out.appendChild(h('p', {text: 'No plan.json beside the report.'})); return out; }
		var rows = [['plan digest', p.plan_digest], ['created', p.created_at], ['hlab version', p.hlab_version], ['tasks', p.task_count === null ? null : p.task_count + (p.repeat && p.repeat > 1 ? ' entries (' + p.repeat + ' trials each)' : '')], ['provider', p.provider], ['budgets', p.budgets], ['policy', p.policy]];
		if (p.hypothesis !== null && p.hypothesis !== undefined) rows.unshift(['hypothesis', p.hypothesis]);
		p.digests.forEach(function (d) { rows.push([d.name, d.digest]); });
		out.appendChild(h('dl', {cls: 'identity'}, rows.filter(function (r) { return r[1] !== null && r[1] !== undefined; }).map(function (r) {
			return [h('dt', {text: r[0]}), h('dd', null, h('code', {text: json(r[1])}))];
		})));
		return out;
	}

	function sidesSection() {
		var out = section(comparison ? 'Sides' : family ? 'Baseline' : 'Attempt', 'sides');
		out.appendChild(h('div', {cls: 'sides'}, data.sides.map(function (side) {
			var t = side.totals;
			return h('div', {cls: 'card'}, h('h3', {text: side.label}),
				h('p', {cls: 'big ' + (t.passed === t.tasks ? 'good-text' : 'bad-text'), text: t.passed + ' / ' + t.tasks + ' passed'}),
				integrityBlock(side.integrity),
				h('dl', {cls: 'identity'}, [['attempt', side.attempt_id], ['completion', side.completion], ['admitted', side.admission.admitted ? 'yes' : 'no: ' + side.admission.differences.join('; ')], ['turns', num(t.turns)], ['tokens', num(t.total_tokens)], ['task wall time', ms(t.wall_ms)], ['timing', side.timing], ['candidate', side.candidate ? side.candidate.source_path + ' (' + short(side.candidate.code_digest) + ')' : side.host ? side.host.path : side.agent ? 'agent: ' + side.agent : 'none: the production engine'], ['report', side.report_path]].concat(side.resumed.map(function (line) { return ['resumed', line]; })).map(function (r) {
					return [h('dt', {text: r[0]}), h('dd', {text: r[1]})];
				})),
				side.problems.length ? h('ul', {cls: 'problems'}, side.problems.map(function (p) { return h('li', {text: p}); })) : null);
		})));
		return out;
	}

	// Contained in green, trusted-code in red with every reason: a side's label is its own, never the other's.
	function integrityBlock(integrity) {
		var contained = integrity.label === 'contained';
		return h('div', {cls: 'integrity ' + (contained ? 'contained' : 'trusted')},
			h('p', {cls: 'integrity-label', text: 'integrity: ' + integrity.label}),
			integrity.reasons.length ? h('ul', null, integrity.reasons.map(function (r) { return h('li', {text: r}); })) : null,
			h('p', {cls: 'integrity-note', text: integrity.note}));
	}

	// The task table: one row per entry of the denominator, a group of columns per side.
	var columns = [{key: 'status', title: 'status'}, {key: 'grade', title: 'grader'}, {key: 'turns', title: 'turns', n: true}, {key: 'tokens', title: 'tokens', n: true}, {key: 'wall_ms', title: 'duration', n: true}, {key: 'leak', title: 'leaks'}];
	var sortState = {key: 'index', side: -1, dir: 1};
	// Rows are made when first shown and kept; the table holds the first rows of the sorted, filtered list, a page at a time.
	var rowNodes = [];
	var detailNodes = {};
	var tbody;
	var pageRows = 200;
	var order = data.rows.map(function (row) { return row.index; });
	var shownList = order;
	var renderedCount = 0;
	var moreRow = null;
	var nearEnd = typeof IntersectionObserver === 'function' ? new IntersectionObserver(function (entries) {
		if (entries.some(function (entry) { return entry.isIntersecting; })) renderMore();
	}, {rootMargin: '800px'}) : null;

	function gradeLine(cell) {
		if (!cell.grade) return cell.message || '—';
		var lines = cell.grade.details.split('\n').filter(function (l) { return l.trim() !== ''; });
		var failing = lines.filter(function (l) { return /^fail/i.test(l); });
		if (failing.length) return failing[0];
		var passing = lines.filter(function (l) { return /^pass/i.test(l); }).length;
		if (passing && passing === lines.length) return 'all ' + passing + ' checks pass';
		return lines[0] || (cell.grade.passed ? 'passed' : 'failed');
	}
	function cellValue(cell, key) {
		if (!cell) return null;
		if (key === 'status') return cell.status + (cell.reason ? ' ' + cell.reason : '');
		if (key === 'grade') return gradeLine(cell);
		if (key === 'leak') return cell.leak ? cell.leak.summary : null;
		return cell[key];
	}
	function rowCells(row) {
		return row.cells.map(function (cell, side) {
			return columns.map(function (col, c) {
				var first = c === 0 ? ' first' : '';
				if (!cell) return h('td', {cls: 'none' + first, text: '—'});
				if (col.key === 'status') return h('td', {cls: 'status' + first}, h('span', {cls: 'pill ' + cell.status, text: cell.status}), cell.reason ? h('span', {cls: 'reason', text: cell.reason}) : null);
				if (col.key === 'grade') { var g = gradeLine(cell); return h('td', {cls: 'grade', title: cell.grade ? cell.grade.details : g, text: g}); }
				if (col.key === 'wall_ms') return h('td', {cls: 'n', text: ms(cell.wall_ms)});
				if (col.key === 'leak') return h('td', {cls: cell.leak && !cell.leak.clean ? 'leak bad-text' : 'leak', text: cell.leak ? cell.leak.summary : '—'});
				return h('td', {cls: 'n', text: num(cell[col.key])});
			});
		});
	}
	function tableRow(row) {
		var failed = row.cells.some(function (c) { return c && c.status !== 'passed'; });
		var tr = h('tr', {cls: 'task' + (failed ? ' has-failure' : ''), 'data-index': row.index, tabindex: 0, on: {click: function () { toggle(row); }, keydown: function (e) { if (e.key === 'Enter') toggle(row); }}},
			h('td', {cls: 'n idx', text: row.index + 1}), h('td', {cls: 'id'}, h('span', {cls: 'caret', text: '▸'}), h('span', {text: row.task_id})), rowCells(row));
		return tr;
	}

	function tasksSection() {
		var out = section('Tasks', 'tasks');
		var filter = h('select', {id: 'filter', 'aria-label': 'show', on: {change: apply}},
			h('option', {value: 'all', text: 'all tasks'}), h('option', {value: 'failed', text: 'failed only' + (comparison ? ' (either side)' : '')}),
			comparison ? h('option', {value: 'differ', text: 'sides differ'}) : null, h('option', {value: 'passed', text: 'passed only'}));
		var search = h('input', {id: 'search', type: 'search', placeholder: 'filter by task id', 'aria-label': 'filter by task id', on: {input: apply}});
		var counter = h('span', {id: 'shown', cls: 'muted'});
		out.appendChild(h('div', {cls: 'controls'}, filter, search, counter, h('span', {cls: 'muted hint', text: 'click a header to sort, a row to open its transcript and journal'})));
		var head1 = h('tr', null, h('th', {rowspan: 2, cls: 'sortable', 'data-key': 'index', text: '#'}), h('th', {rowspan: 2, cls: 'sortable', 'data-key': 'task', text: 'task'}),
			data.sides.map(function (side) { return h('th', {colspan: columns.length, cls: 'group', text: side.label}); }));
		var head2 = h('tr', null, data.sides.map(function (side, s) {
			return columns.map(function (col, c) { return h('th', {cls: 'sortable' + (c === 0 ? ' first' : '') + (col.n ? ' n' : ''), 'data-key': col.key, 'data-side': s, text: col.title}); });
		}));
		var thead = h('thead', {on: {click: function (e) { var th = e.target.closest('th.sortable'); if (th) sortBy(th); }}}, head1, head2);
		tbody = h('tbody');
		out.appendChild(h('div', {cls: 'scroll'}, h('table', {id: 'task-table', cls: 'tasks'}, thead, tbody)));
		return out;
	}

	function visible(row) {
		var mode = document.getElementById('filter').value;
		var text = document.getElementById('search').value.trim().toLowerCase();
		if (text && row.task_id.toLowerCase().indexOf(text) === -1) return false;
		var statuses = row.cells.map(function (c) { return c ? c.status : null; });
		if (mode === 'failed') return statuses.some(function (s) { return s !== 'passed'; });
		if (mode === 'passed') return statuses.every(function (s) { return s === 'passed'; });
		if (mode === 'differ') return statuses[0] !== statuses[1];
		return true;
	}
	function rowNode(index) { return rowNodes[index] || (rowNodes[index] = tableRow(data.rows[index])); }
	// The next page of the shown list, with the detail of each open row after it, and a row that brings the page after.
	function renderMore() {
		var fragment = document.createDocumentFragment();
		var end = Math.min(shownList.length, renderedCount + pageRows);
		for (var i = renderedCount; i < end; i++) {
			var index = shownList[i];
			fragment.appendChild(rowNode(index));
			if (detailNodes[index]) fragment.appendChild(detailNodes[index]);
		}
		renderedCount = end;
		if (moreRow) { if (nearEnd) nearEnd.unobserve(moreRow); moreRow.remove(); moreRow = null; }
		var left = shownList.length - renderedCount;
		if (left > 0) {
			moreRow = h('tr', {cls: 'more'}, h('td', {colspan: 2 + columns.length * data.sides.length}, h('button', {type: 'button', on: {click: renderMore}, text: 'show ' + Math.min(left, pageRows) + ' more (' + left + ' not shown yet)'})));
			fragment.appendChild(moreRow);
		}
		tbody.appendChild(fragment);
		if (moreRow && nearEnd) nearEnd.observe(moreRow);
	}
	function render() {
		tbody.textContent = '';
		renderedCount = 0;
		moreRow = null;
		renderMore();
	}
	function apply() {
		shownList = order.filter(function (index) { return visible(data.rows[index]); });
		render();
		document.getElementById('shown').textContent = shownList.length + ' of ' + data.rows.length + ' tasks';
	}
	function sortBy(th) {
		var key = th.getAttribute('data-key');
		var side = th.hasAttribute('data-side') ? Number(th.getAttribute('data-side')) : -1;
		sortState.dir = sortState.key === key && sortState.side === side ? -sortState.dir : 1;
		sortState.key = key; sortState.side = side;
		document.querySelectorAll('th.sortable').forEach(function (other) { other.removeAttribute('aria-sort'); });
		th.setAttribute('aria-sort', sortState.dir === 1 ? 'ascending' : 'descending');
		var value = function (row) {
			if (key === 'index') return row.index;
			if (key === 'task') return row.task_id;
			return cellValue(row.cells[side], key);
		};
		order = data.rows.slice().sort(function (a, b) {
			var x = value(a), y = value(b);
			// Unknown values sort last whichever the direction: they are not small.
			if (x === null || x === undefined) return y === null || y === undefined ? a.index - b.index : 1;
			if (y === null || y === undefined) return -1;
			var compared = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
			return compared === 0 ? a.index - b.index : compared * sortState.dir;
		}).map(function (row) { return row.index; });
		apply();
	}

	function evidenceOf(side, index) {
		var node = document.getElementById('hlab-ev-' + side + '-' + index);
		return node ? JSON.parse(node.textContent) : {messages: [], journal: [], problems: ['no evidence embedded']};
	}
	function toggle(row) {
		// The evidence blocks follow this script: a task opened before they are all parsed opens once they are.
		if (document.readyState === 'loading') { document.addEventListener('DOMContentLoaded', function () { toggle(row); }, {once: true}); return; }
		var tr = rowNodes[row.index];
		var open = !tr.classList.contains('open');
		tr.classList.toggle('open', open);
		tr.querySelector('.caret').textContent = open ? '▾' : '▸';
		if (open && !detailNodes[row.index]) {
			var detail = h('tr', {cls: 'detail'}, h('td', {colspan: 2 + columns.length * data.sides.length}, h('div', {cls: 'panes'}, row.cells.map(function (cell, s) { return pane(data.sides[s], cell, evidenceOf(s, row.index)); }))));
			detailNodes[row.index] = detail;
			tr.parentNode.insertBefore(detail, tr.nextSibling);
		}
		if (detailNodes[row.index]) detailNodes[row.index].hidden = !open;
	}

	function pane(side, cell, ev) {
		if (!cell) return h('div', {cls: 'pane'}, h('h3', {text: side.label}), h('p', {text: 'This side has no entry for the task.'}));
		var facts = [['status', cell.status + (cell.reason ? ' (' + cell.reason + ')' : '')], ['message', cell.message], ['outcome', cell.outcome ? cell.outcome.status + ', ' + cell.outcome.steps + ' steps' + (cell.outcome.stopped_by ? ', stopped by ' + cell.outcome.stopped_by.plugin + ': ' + cell.outcome.stopped_by.reason : '') : null],
			['score', cell.grade && cell.grade.score !== null ? cell.grade.score : null], ['usage', cell.usage ? num(cell.usage.turns) + ' turns, ' + num(cell.usage.input_tokens) + ' in / ' + num(cell.usage.output_tokens) + ' out tokens' + (cell.usage.cost_usd !== null ? ', $' + cell.usage.cost_usd : '') : 'unknown: the task never reached the model'], ['duration', ms(cell.wall_ms)]];
		return h('div', {cls: 'pane'}, h('h3', null, h('span', {cls: 'pill ' + cell.status, text: cell.status}), ' ' + side.label),
			h('dl', {cls: 'identity'}, facts.filter(function (f) { return f[1] !== null && f[1] !== undefined; }).map(function (f) { return [h('dt', {text: f[0]}), h('dd', {text: f[1]})]; })),
			cell.grade ? h('div', null, h('h4', {text: 'grader'}), h('pre', {cls: 'grade-details'}, cell.grade.details.split('\n').map(function (line) { return h('span', {cls: /^fail/i.test(line) ? 'bad-text' : /^pass/i.test(line) ? 'good-text' : '', text: line + '\n'}); }))) : null,
			cell.outcome && cell.outcome.final_text ? h('div', null, h('h4', {text: 'final answer'}), h('pre', {text: cell.outcome.final_text})) : null,
			cell.leak ? h('div', null, h('h4', {text: 'leak audit: ' + cell.leak.summary}), h('pre', {text: cell.leak.detail})) : null,
			ev.problems.length ? h('ul', {cls: 'problems'}, ev.problems.map(function (p) { return h('li', {text: p}); })) : null,
			h('h4', {text: 'transcript (' + ev.messages.length + ' messages)'}), transcript(ev.messages),
			h('details', {cls: 'journal'}, h('summary', {text: 'journal (' + ev.journal.length + ' records)'}), journal(ev.journal)));
	}
	function transcript(messages) {
		return h('ol', {cls: 'transcript'}, messages.map(function (m) {
			var meta = h('div', {cls: 'meta'}, h('span', {cls: 'role ' + m.role, text: m.role}), m.step === null ? null : h('span', {cls: 'muted', text: 'step ' + m.step}), m.provenance ? h('span', {cls: 'muted', text: 'from ' + m.provenance}) : null);
			if (m.role === 'tool') {
				var size = m.content === null ? 0 : m.content.length;
				return h('li', {cls: 'msg tool' + (m.is_error ? ' error' : '')}, h('details', null, h('summary', null, h('span', {cls: 'role tool', text: 'tool result'}), ' ' + (m.tool || '') + (m.is_error ? ' (error)' : '') + ' · ' + size.toLocaleString('en-US') + ' characters'), h('pre', {text: m.content === null ? '' : m.content})));
			}
			var body = m.role === 'system' ? h('details', null, h('summary', {text: 'system instructions'}), h('pre', {text: m.content || ''})) : m.content ? h('pre', {text: m.content}) : null;
			return h('li', {cls: 'msg ' + m.role}, meta, body, m.calls.map(function (c) { return h('div', {cls: 'call'}, h('span', {cls: 'fn', text: '→ ' + c.name}), h('code', {text: c.arguments})); }));
		}));
	}
	function journal(lines) {
		return h('table', {cls: 'small journal-table'}, h('tbody', null, lines.map(function (l) {
			return h('tr', null, h('td', {cls: 'n muted', text: l.seq}), h('td', {cls: 'n muted', text: l.t_ms === null ? '' : l.t_ms + ' ms'}), h('td', {cls: 'jtype', text: l.type}), h('td', null, h('code', {text: l.summary})));
		})));
	}

	var main = h('main', null, header(), decisionSection(), statisticsSection(), sidesSection(), planSection(), tasksSection(), summarySection());
	document.body.appendChild(main);
	apply();
	document.body.setAttribute('data-rendered-ms', String(Math.round(performance.now())));
	document.body.setAttribute('data-script-ms', String(Math.round(performance.now() - started)));
})();
`;
