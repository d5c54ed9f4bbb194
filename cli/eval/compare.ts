import {existsSync} from 'node:fs';
import type {CiOutputs} from '../../supervisor/compare/ci/write-ci-outputs.js';
import type {Decision} from '../../supervisor/compare/decision-schema.js';
import {UsageError} from '../../supervisor/input-error.js';
import {fail, failedExit, insufficientExit, okExit, reviseExit} from '../exit-codes.js';
import {absolutePaths, outputPath} from '../path-option.js';
import {outOf} from './out-flag.js';
import type {EvalMode} from './eval-mode.js';
import {printResult} from './print-result.js';

interface CompareFlags {
	compare: string[];
	out?: string;
	decisionOutput?: string;
	/** A path, or false for --no-html; absent: beside the decision. */
	html?: string | false;
	junit?: string;
	summaryMd?: string;
	json?: boolean;
}

/** `hlab eval --compare`: the decision over a baseline and a candidate report, optionally written with its page. */
export const compareMode: EvalMode = {
	name: 'compare',
	addTrigger: command => command.option('--compare <baseline,candidate>', 'compare two report.json files (baseline,c1,c2,...: several candidates, Holm\'s correction across them)', absolutePaths),
	own: {
		modes: ['compare'], why: 'is an option of a comparison',
		add: command => command
			.option('--decision-output <file>', 'alias of --out: write the decision here (never overwrites)', outputPath)
			.option('--html <file>', 'with --out: write the comparison page here (default: beside the decision, .html)', outputPath)
			.option('--no-html', 'with --out: write no comparison page')
			.option('--junit <file>', 'also write the decision as JUnit XML: a test case per task pair and one for the decision (never overwrites)', outputPath)
			.option('--summary-md <file>', 'also write a Markdown summary for a CI job page (never overwrites); appended to $GITHUB_STEP_SUMMARY when set', outputPath),
	},
	run: async (flags: CompareFlags) => compare(flags),
};

/** The comparison's engine, loaded by the mode that runs, not by every `hlab eval` (bench/README.md, the test suite). */
async function loadEngine() {
	const {compareEvidenceDir, compareReports, DecisionExistsError, writeDecision} = await import('../../supervisor/compare/compare-reports.js');
	const {candidatesSummary, compareCandidates} = await import('../../supervisor/compare/compare-candidates.js');
	const {writeCiOutputs} = await import('../../supervisor/compare/ci/write-ci-outputs.js');
	const {decisionSummary} = await import('../../supervisor/compare/decision-summary.js');
	const {writeReport} = await import('../../supervisor/report/index.js');
	return {compareEvidenceDir, compareReports, DecisionExistsError, writeDecision, candidatesSummary, compareCandidates, writeCiOutputs, decisionSummary, writeReport};
}

type Engine = Awaited<ReturnType<typeof loadEngine>>;

async function compare(flags: CompareFlags): Promise<number> {
	const paths = flags.compare;
	if (paths.length < 2) throw new UsageError('--compare needs a baseline and at least one candidate: baseline/report.json,candidate/report.json[,...]');
	const engine = await loadEngine();
	const {DecisionExistsError, compareReports, compareEvidenceDir, writeDecision, writeReport, writeCiOutputs, decisionSummary} = engine;
	if (paths.length > 2) return compareSeveral(flags, engine);
	const output = outOf(flags, '--decision-output', flags.decisionOutput) ?? null;
	// Refused before any controller call: a decision is never overwritten, so there is nothing to decide.
	if (output !== null && existsSync(output)) throw new DecisionExistsError(`decision output ${output} already exists; decisions are never overwritten`);
	const html = pageOutput(flags, output);
	if (html !== null && existsSync(html)) throw new DecisionExistsError(`comparison page ${html} already exists; pages are never overwritten (--no-html to skip it)`);
	refuseExistingCiOutputs(flags, {DecisionExistsError});
	const decision = await compareReports(paths[0]!, paths[1]!, {evidenceDir: output === null ? null : compareEvidenceDir(output)});
	if (output !== null) await writeDecision(output, decision);
	if (html !== null && output !== null) await writeReport({baseline: paths[0]!, candidate: paths[1]!, decision: output}, html);
	await writeCiOutputs(decision, ciOutputs(flags, html));
	printResult(flags, decisionSummary(decision, output, html), decision);
	// A refused timing is said on stderr too, so a script sees why no duration was compared.
	if (decision.timing?.kind === 'refused') fail(`comparison refused (${decision.timing.reason}): ${decision.timing.message}`);
	return exitOf(decision.decision);
}

/** Several candidates: one decision file over all of them; it exits 0 when at least one is accepted. */
async function compareSeveral(flags: CompareFlags, {DecisionExistsError, compareCandidates, candidatesSummary, writeDecision, writeReport, writeCiOutputs}: Engine): Promise<number> {
	const [baseline, ...candidates] = flags.compare;
	const output = outOf(flags, '--decision-output', flags.decisionOutput) ?? null;
	const html = pageOutput(flags, output);
	if (output !== null && existsSync(output)) throw new DecisionExistsError(`decision output ${output} already exists; decisions are never overwritten`);
	if (html !== null && existsSync(html)) throw new DecisionExistsError(`comparison page ${html} already exists; pages are never overwritten (--no-html to skip it)`);
	refuseExistingCiOutputs(flags, {DecisionExistsError});
	const decision = await compareCandidates(baseline!, candidates);
	if (output !== null) await writeDecision(output, decision);
	// One page for the family: every candidate side by side.
	if (html !== null && output !== null) await writeReport({family: output}, html);
	await writeCiOutputs(decision, ciOutputs(flags, html));
	printResult(flags, `${candidatesSummary(decision, output)}${html === null ? '' : `\npage written to ${html}`}`, decision);
	const verdicts = decision.candidates.map(item => item.verdict);
	if (verdicts.includes('accept')) return okExit;
	return exitOf(verdicts.includes('insufficient') ? 'insufficient' : verdicts.includes('revise') ? 'revise' : 'reject');
}

/** Refused before anything is decided, like the decision file: CI outputs are never overwritten. */
function refuseExistingCiOutputs(flags: CompareFlags, {DecisionExistsError}: Pick<Engine, 'DecisionExistsError'>): void {
	for (const [flag, path] of [['--junit', flags.junit], ['--summary-md', flags.summaryMd]] as const) {
		if (path !== undefined && existsSync(path)) throw new DecisionExistsError(`${flag} output ${path} already exists; it is never overwritten`);
	}
}

function ciOutputs(flags: CompareFlags, page: string | null): CiOutputs {
	return {junit: flags.junit ?? null, summary: flags.summaryMd ?? null, stepSummary: process.env.GITHUB_STEP_SUMMARY || null, page};
}

/** Where the comparison page goes: --html, or beside the decision file; none with --no-html or without a decision file. */
function pageOutput(flags: CompareFlags, decisionOutput: string | null): string | null {
	if (flags.html === false) return null;
	if (decisionOutput === null) {
		if (flags.html !== undefined) throw new UsageError('--html needs --out: the page shows a decision that was written');
		return null;
	}
	return flags.html ?? decisionOutput.replace(/(\.json)?$/, '.html');
}

function exitOf(decision: Decision['decision']): number {
	switch (decision) {
		case 'accept': return okExit;
		case 'revise': return reviseExit;
		case 'insufficient': return insufficientExit;
		case 'reject': return failedExit;
	}
}
