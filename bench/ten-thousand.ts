import {rename, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {launchHeadless, openPage} from '../test/supervisor/report/browser.js';
import type {Bench, BenchResult, BenchSize} from './bench-result.js';
import {oneTurnContext, stubPlan} from './one-turn/context.js';
import {clearAttempts, hlab, runPlan, type AttemptRun} from './one-turn/fixture.js';
import {round} from './stats.js';

export const tenThousandSizes = {tiny: {tasks: 6, small: 2, concurrency: 2}, full: {tasks: 10_000, small: 500, concurrency: 8}} as const;

/** Each of recover, compare and report within this, and the page's first paint and filter within the other. */
const commandTargetMs = 10_000;
const pageTargetMs = 2000;

/**
 * One attempt of N one-turn tasks (`--repeat N` of the one task, on the plain stub), its peak RSS against an attempt of
 * the small size in the same run, and what a person does with it afterwards: compare it with a second attempt, write its
 * page, recover it, open the page in Chromium and filter it.
 */
export const tenThousand: Bench = {
	name: 'ten-thousand-tasks',
	async run(size: BenchSize): Promise<BenchResult> {
		const {tasks, small, concurrency} = tenThousandSizes[size];
		const context = await oneTurnContext();
		const smallRun = await runPlan(context.dir, await stubPlan(small, concurrency), small);
		await clearAttempts(context.dir);
		const plan = await stubPlan(tasks, concurrency);
		const baseline = await runPlan(context.dir, plan, tasks);
		const candidate = await runPlan(context.dir, plan, tasks, ['--side', 'candidate']);
		try {
			const after = await afterTheAttempt(context.dir, baseline, candidate);
			const page = await openAndFilter(after.page, tasks);
			const rssRatio = ratioOf(peakOf(baseline, candidate), smallRun.peakRssMiB);
			const commandsMet = Math.max(after.compareMs, after.reportMs, after.recoverMs) <= commandTargetMs;
			const pageMet = Math.max(page.firstPaintMs, page.filterMs) <= pageTargetMs;
			return {
				name: 'ten-thousand-tasks',
				figure: `one attempt of ${tasks.toLocaleString('en-US')} one-turn tasks (plain stub, concurrency ${concurrency}): its peak RSS over that of ${small} tasks (also the wall time, and the time of --compare, hlab report, --recover and of the page in Chromium, in measured)`,
				ratio: rssRatio,
				ratio_spread: {min: rssRatio, max: rssRatio},
				measured: {
					wall_ms: round(baseline.wallMs, 0), candidate_wall_ms: round(candidate.wallMs, 0), peak_rss_mib: round(peakOf(baseline, candidate) ?? -1),
					compare_ms: round(after.compareMs, 0), report_ms: round(after.reportMs, 0), recover_ms: round(after.recoverMs, 0),
					report_json_mib: round(after.reportBytes / 2 ** 20), page_mib: round(after.pageBytes / 2 ** 20), ledger_mib: round(after.ledgerBytes / 2 ** 20),
					page_first_paint_ms: round(page.firstPaintMs, 0), page_table_built_ms: round(page.builtMs, 0), page_filter_ms: round(page.filterMs, 0), page_main_thread_ms: page.mainThreadMs,
				},
				floor: {small_tasks: small, small_wall_ms: round(smallRun.wallMs, 0), small_peak_rss_mib: round(smallRun.peakRssMiB ?? -1)},
				floor_description: `one attempt of ${small} of the same tasks at the same concurrency, run first`,
				repetitions: 1,
				notes: 'Peak RSS is the VmHWM of the hlab process (the larger of the baseline and the candidate attempt). compare: hlab eval --compare of the two attempts (--no-html); report: hlab report of the baseline attempt; recover: hlab eval --recover of the baseline attempt with its report.json moved away (as a crash before the report leaves it). The page: opened in headless Chromium (@sparticuz/chromium); first paint is the later of the first contentful paint and the end of the table\'s script, filter the time from a search typed to the next frame. Each command is spawn to exit, Node start-up included.',
				target: size === 'tiny' ? null : {description: `peak RSS at ${tasks} tasks within 1.5× of ${small}; --recover, --compare and hlab report each within ${commandTargetMs / 1000} s; the page's first paint and a filter within ${pageTargetMs / 1000} s`, met: rssRatio <= 1.5 && commandsMet && pageMet},
			};
		} finally {
			await clearAttempts(context.dir);
		}
	},
};

interface AfterAttempt {
	compareMs: number;
	reportMs: number;
	recoverMs: number;
	page: string;
	reportBytes: number;
	pageBytes: number;
	ledgerBytes: number;
}

/** The three commands a person runs on a finished attempt, each timed from spawn to exit. */
async function afterTheAttempt(dir: string, baseline: AttemptRun, candidate: AttemptRun): Promise<AfterAttempt> {
	const decision = join(baseline.artifacts, '..', `${baseline.artifacts.split('/').pop()}-decision.json`);
	// Two sides of the same work: no verdict is expected, only that it is reached (accept, reject, revise or insufficient).
	const compare = await hlab(['eval', '--compare', `${baseline.artifacts}/report.json,${candidate.artifacts}/report.json`, '--decision-output', decision, '--no-html', '--json'], {cwd: dir, statuses: [0, 1, 3, 4]});
	const page = join(baseline.artifacts, 'report.html');
	const report = await hlab(['report', baseline.artifacts, '--output', page], {cwd: dir});
	const reportBytes = (await stat(join(baseline.artifacts, 'report.json'))).size;
	// As a crash before the report leaves it: the ledger holds every task, report.json is not there.
	await rename(join(baseline.artifacts, 'report.json'), join(baseline.artifacts, 'report.before-recovery.json'));
	const recover = await hlab(['eval', '--recover', baseline.artifacts, '--json'], {cwd: dir, statuses: [1]});
	return {
		compareMs: compare.record.wall_ms, reportMs: report.record.wall_ms, recoverMs: recover.record.wall_ms, page, reportBytes,
		pageBytes: (await stat(page)).size, ledgerBytes: (await stat(join(baseline.artifacts, 'ledger.jsonl'))).size,
	};
}

interface PageTiming {
	firstPaintMs: number;
	builtMs: number;
	filterMs: number;
	mainThreadMs: number;
}

/** Opens the page, reads when it painted, then types the last task's id into the search and waits for the next frame. */
async function openAndFilter(file: string, tasks: number): Promise<PageTiming> {
	const browser = await launchHeadless();
	try {
		const {page, watch, mainThreadMs} = await openPage(browser, file);
		// A string: bench/ is compiled without the DOM's types, and this runs in the page.
		// The first contentful paint may come after the load event: wait for it (buffered), for at most a minute.
		const timing = await page.evaluate(`new Promise(resolve => {
			const built = Number(document.body.getAttribute('data-rendered-ms'));
			const give = entry => resolve({paint: entry ? entry.startTime : null, built});
			new PerformanceObserver(list => give(list.getEntriesByName('first-contentful-paint')[0])).observe({type: 'paint', buffered: true});
			setTimeout(() => give(null), 60000);
		})`) as {paint: number | null; built: number};
		const working = await mainThreadMs();
		const filterMs = await page.evaluate(`new Promise(resolve => {
			const started = performance.now();
			const search = document.getElementById('search');
			search.value = '#${tasks}';
			search.dispatchEvent(new Event('input'));
			requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started)));
		})`) as number;
		const shown = await page.textContent('#shown');
		if (shown !== `1 of ${tasks} tasks`) throw new Error(`the page's filter shows '${shown}', not 1 of ${tasks} tasks`);
		if (timing.paint === null || watch.errors.length > 0) throw new Error(`the page did not paint or had errors: ${watch.errors.join('; ')}`);
		return {firstPaintMs: Math.max(timing.paint, timing.built), builtMs: timing.built, filterMs, mainThreadMs: working};
	} finally {
		await browser.close();
	}
}

function peakOf(...runs: AttemptRun[]): number | null {
	const peaks = runs.map(run => run.peakRssMiB).filter(peak => peak !== null);
	return peaks.length === 0 ? null : Math.max(...peaks);
}

function ratioOf(value: number | null, floor: number | null): number {
	return value === null || floor === null ? -1 : round(value / floor);
}
