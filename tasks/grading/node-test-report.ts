import {z} from 'zod';

/** One line of the grader's reporter (node-test-reporter.ts). */
const ReportLine = z.union([
	z.strictObject({result: z.enum(['pass', 'fail']), name: z.string(), skipped: z.boolean(), error: z.string().optional()}),
	z.strictObject({summary: z.strictObject({
		tests: z.number(), passed: z.number(), failed: z.number(), cancelled: z.number(), skipped: z.number(), todo: z.number(),
		topLevel: z.number(), suites: z.number(),
	}).nullable()}),
]);

type ReportLine = z.infer<typeof ReportLine>;

function parseLine(line: string): ReportLine | null {
	try {
		return ReportLine.parse(JSON.parse(line));
	} catch {
		return null;
	}
}

const shown = (names: string[]): string => `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}`;

/**
 * Why the runner's report does not show every expected test run and passed, or null when it does: every line is the
 * reporter's, each expected name passed once and nothing else ran, nothing failed, and the runner's own counts agree.
 * A test process that ended before its tests (an exit, a crash) shows as its file, not as the named tests.
 */
export function reportProblem(stdout: string, expected: string[]): string | null {
	const parsed = stdout.split('\n').filter(line => line !== '').map(parseLine);
	const bad = parsed.indexOf(null);
	if (bad !== -1) return `the test report is not the grader's reporter's: line ${bad + 1}`;
	const entries = parsed as ReportLine[];
	return resultsProblem(entries.flatMap(entry => 'result' in entry ? [entry] : []), expected) ?? summaryProblem(entries, expected.length);
}

/** Nothing failed, each expected name passed once, and nothing else ran. */
function resultsProblem(results: Array<{result: 'pass' | 'fail'; name: string; skipped: boolean; error?: string}>, expected: string[]): string | null {
	const failed = results.filter(result => result.result === 'fail');
	if (failed.length > 0) return `failed: ${shown(failed.map(result => result.name))} (first: ${failed[0]!.error ?? 'failed'})`;
	const passed = results.filter(result => !result.skipped).map(result => result.name);
	const missing = expected.filter(name => !passed.includes(name));
	const instead = passed.filter(name => !expected.includes(name));
	if (missing.length > 0) return `not run and passed: ${shown(missing)} (${missing.length} of ${expected.length} expected tests)${instead.length > 0 ? `; passed instead: ${shown(instead)}` : ''}`;
	const unexpected = results.map(result => result.name).filter(name => !expected.includes(name));
	if (unexpected.length > 0) return `unexpected results: ${shown(unexpected)}`;
	const twice = expected.filter(name => passed.filter(other => other === name).length > 1);
	return twice.length > 0 ? `reported more than once: ${shown(twice)}` : null;
}

/** The report ends with the runner's one summary, whose counts are exactly the expected tests, all passed. */
function summaryProblem(entries: ReportLine[], expected: number): string | null {
	const last = entries.at(-1);
	const summaries = entries.filter(entry => 'summary' in entry);
	if (summaries.length !== 1 || last === undefined || !('summary' in last) || last.summary === null) return 'the runner did not end with its one summary';
	const counts = last.summary;
	if (counts.tests === expected && counts.passed === expected && counts.topLevel === expected && counts.failed + counts.cancelled + counts.skipped + counts.todo === 0) return null;
	return `the runner's counts do not match: tests ${counts.tests}, passed ${counts.passed}, failed ${counts.failed}, cancelled ${counts.cancelled} of ${expected} expected`;
}
