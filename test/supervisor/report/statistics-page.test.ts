import {readFile, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {Decision} from '../../../supervisor/compare/decision-schema.js';
import {CandidatesDecision} from '../../../supervisor/compare/candidates-decision-schema.js';
import {installRoot} from '../../../files/install-root.js';
import {checkNoLeaks} from '../../leak-check.js';
import {hlab} from '../../hlab.js';
import {tempDir} from '../../temp-dir.js';
import {launchBrowser, openPage, screenshot} from './browser.js';

checkNoLeaks(t);

const candidate = join(installRoot, 'examples', 'candidates', 'repeated-observation.ts');

async function run(args: string[], cwd: string, status: number | 'any' = 0): Promise<string> {
	const result = await hlab(args, {cwd, timeoutMs: 180_000});
	if (status !== 'any' && result.record.exit_code !== status) throw new Error(`hlab ${args.slice(0, 2).join(' ')} exited ${result.record.exit_code}, not ${status}: ${result.stderr}`);
	return result.stdout;
}

t.test('a repeated-trials comparison page shows the power line, the clustered intervals, their variance split and a chart per statistic, offline', async t => {
	const dir = await tempDir(t, 'hlab-stats-page-');
	await writeFile(join(dir, 'policy.json'), JSON.stringify({concurrency: 2, acceptance: {improvement: 'turns', min_confidence: 0.95, require_all_pass: false, max_duration_ratio: 10}}));
	await run(['eval', '--task', 'answer_from_prompt,sales_report,test_failure_fix', '--repeat', '2', '--experiment-policy', 'policy.json', '--freeze', 'plan.json'], dir);
	await run(['eval', '--plan', 'plan.json', '--artifacts', 'base'], dir);
	await run(['eval', '--plan', 'plan.json', '--artifacts', 'cand', '--candidate', candidate], dir);
	// The candidate saves a turn on two tasks of three: ahead, but over three tasks the interval reaches zero.
	await run(['eval', '--compare', 'base/report.json,cand/report.json', '--decision-output', 'decision.json', '--summary-md', 'summary.md'], dir, 4);
	const decision = Decision.parse(JSON.parse(await readFile(join(dir, 'decision.json'), 'utf8')));
	const turns = decision.statistics!.differences.find(item => item.metric === 'turns')!;

	const browser = await launchBrowser(t);
	const {page, watch} = await openPage(browser, join(dir, 'decision.html'));
	t.match(await page.textContent('#verdict'), /^INSUFFICIENT evidence/);
	t.match(await page.textContent('#power'), /^Power at freeze: over 3 tasks × 2 trials, no pass-rate gain is found with 80% power; significance needs at least 6 tasks with a net win\./);
	t.match(await page.textContent('#pass-fail'), /exact sign-flip test over tasks/);
	t.same(await page.locator('#statistics td.resampled').allTextContents(), ['tasks (3)', 'tasks (3)', 'tasks (3)'], 'with repeats the bootstrap resampled tasks');
	t.match(await page.textContent('#statistics table'), /variance between \/ within tasks/);
	const charts = page.locator('figure.chart');
	t.same(await charts.evaluateAll(nodes => nodes.map(node => node.getAttribute('data-metric'))), ['turns', 'total_tokens', 'wall_ms'], 'one chart per statistic');
	const turnsChart = charts.first();
	t.equal(await turnsChart.locator('svg circle').count(), 6, 'a dot per paired trial');
	t.equal(await turnsChart.locator('svg rect.band').count(), 1, 'the interval as a band');
	t.match(await turnsChart.locator('figcaption').textContent(), new RegExp(`^mean ${turns.mean_difference!.toFixed(2)}, 95% interval \\[${turns.low!.toFixed(2)}, \\+?${turns.high!.toFixed(2)}\\] over 3 tasks`));
	// The band spans the decision's interval on the chart's own scale: its edges sit where low and high fall between the axis's ends.
	const band = await turnsChart.locator('svg rect.band').evaluate(node => ({x: Number(node.getAttribute('x')), width: Number(node.getAttribute('width'))}));
	t.ok(band.width > 0, `the band is ${band.width} wide`);

	// The Markdown summary --summary-md wrote, rendered in the page: its heading, its tables, its numbers.
	const markdown = await readFile(join(dir, 'summary.md'), 'utf8');
	t.match(markdown, /^## hlab decision: INSUFFICIENT$/m);
	const summary = page.locator('#ci-summary .markdown');
	t.equal(await summary.locator('h3').first().textContent(), 'hlab decision: INSUFFICIENT', 'the heading renders as a heading');
	const tables = markdown.split('\n').filter(line => /^\| --- /.test(line)).length;
	t.equal(await summary.locator('table').count(), tables, `each of the ${tables} Markdown tables renders as a table`);
	const checkRows = decision.checks.length;
	t.equal(await summary.locator('table').first().locator('tbody tr').count(), checkRows, 'a row per check');
	t.match(await summary.locator('table').first().textContent(), /❌improvementturns: not significantly fewer at 95%: mean difference -0\.67 per trial/);
	t.equal(await summary.locator('strong').first().textContent(), 'Not enough evidence yet:', 'bold renders as bold');
	t.equal(await summary.locator('table').last().locator('tbody tr').count(), 6, 'the task table: a row per entry');

	const shot = join(dir, 'statistics.png');
	await screenshot(page, shot);
	t.ok((await stat(shot)).size > 10_000);
	t.same(watch.errors, [], 'no console errors');
	t.same(watch.requests, [], 'no network request of any kind');
});

t.test('a family decision\'s page shows every candidate side by side, with its verdict, p-values, intervals and charts', async t => {
	const dir = await tempDir(t, 'hlab-family-page-');
	await writeFile(join(dir, 'policy.json'), JSON.stringify({concurrency: 2, acceptance: {improvement: 'turns', min_confidence: 0.95, max_duration_ratio: 10}}));
	await run(['eval', '--task', 'sales_report,json_config_migration', '--repeat', '2', '--experiment-policy', 'policy.json', '--freeze', 'plan.json'], dir);
	await run(['eval', '--plan', 'plan.json', '--artifacts', 'base'], dir);
	await run(['eval', '--plan', 'plan.json', '--artifacts', 'c1', '--candidate', candidate], dir);
	await run(['eval', '--plan', 'plan.json', '--artifacts', 'c2', '--candidate', join(installRoot, 'examples', 'candidates', 'step-budget.ts')], dir, 'any');
	const stdout = await run(['eval', '--compare', 'base/report.json,c1/report.json,c2/report.json', '--decision-output', 'family.json'], dir, 'any');
	t.match(stdout, /^page written to .*family\.html$/m);
	const family = CandidatesDecision.parse(JSON.parse(await readFile(join(dir, 'family.json'), 'utf8')));

	const browser = await launchBrowser(t);
	const {page, watch} = await openPage(browser, join(dir, 'family.html'));
	t.match(await page.textContent('#verdict'), new RegExp(`^${family.accepted.length} OF 2 ACCEPTED · Holm's correction over ${family.family_size} p-values at 95%`));
	const headers = await page.locator('#family thead th').allTextContents();
	t.same(headers, ['candidate', ...family.candidates.map(item => item.candidate)], 'a column per candidate');
	const cells = async (row: string) => page.locator(`#family tr[data-row="${row}"] td`).allTextContents();
	t.same(await cells('verdict'), family.candidates.map(item => item.verdict));
	t.same(await cells('Holm-adjusted'), family.candidates.map(item => item.adjusted_p_value === null ? '—' : item.adjusted_p_value < 0.0001 ? item.adjusted_p_value.toExponential(2) : item.adjusted_p_value.toPrecision(3)));
	t.ok((await cells('turns')).every(text => /by task$/.test(text) || text === '—'), 'the intervals are the clustered ones');
	t.equal(await page.locator('.family-charts figure.chart').count(), 6, 'a chart per statistic for each candidate');
	await screenshot(page, join(dir, 'family.png'));
	t.same(watch.errors, []);
	t.same(watch.requests, []);
});
