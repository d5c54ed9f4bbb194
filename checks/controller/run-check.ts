import {cp, mkdir, readdir, readFile, writeFile} from 'node:fs/promises';
import {existsSync} from 'node:fs';
import {join, relative, resolve} from 'node:path';
import {z} from 'zod';
import {ControllerIdentity, TasksResult} from '../../controller-protocol/index.js';
import {readPlanFile} from '../../supervisor/attempt/index.js';
import {createControllerClient} from '../../supervisor/controller/index.js';
import {digestFile} from '../../files/digest.js';
import {runInGroup} from '../../process/index.js';
import {ControllerCheckResult, type ControllerCheckStep} from './result-schema.js';
import {FreshWorkspaces, writeObservations} from './observations.js';
import {checkResultSchema} from '../check-result.js';
import {writeJson} from '../../files/write-json.js';

export interface ControllerCheckOptions {
	/** The hlab executable whose `eval --compare` is checked. */
	hlab: string;
	/** A plan frozen with a pinned experiment controller. */
	plan: string;
	/** Must not exist; the check creates it. */
	outputDir: string;
}

/** What the check reads from a decision; its format belongs to the executable's compare. */
const DecisionView = z.object({decision: z.string(), checks: z.array(z.object({rule: z.string(), satisfied: z.boolean(), message: z.string()}).loose())}).loose();
type DecisionView = z.infer<typeof DecisionView>;

const compareTimeoutMs = 180_000;

/**
 * Framework verification of the external-controller path, with no model call: synthetic execution observations
 * are graded by the pinned controller; a report that fabricates success must not override that grader in
 * `hlab eval --compare`; after the candidate is edited, a second comparison writes a new decision and the first
 * one stays byte for byte (and cannot be overwritten).
 */
export async function runControllerCheck(options: ControllerCheckOptions): Promise<ControllerCheckResult> {
	const out = resolve(options.outputDir);
	await mkdir(join(out, '..'), {recursive: true});
	await mkdir(out);
	const hlab = resolve(options.hlab);
	const steps: ControllerCheckStep[] = [];
	const finish = async (planDigest: string | null): Promise<ControllerCheckResult> => {
		const result = ControllerCheckResult.parse({
			schema: checkResultSchema,
			check: 'controller',
			label: 'framework verification: synthetic execution observations graded by the pinned controller, no model call; not a model experiment or self-improvement result',
			hlab,
			plan_digest: planDigest,
			passed: steps.length > 0 && steps.every(step => step.passed),
			steps,
		});
		await writeJson(join(out, 'result.json'), result, {durable: true});
		return result;
	};
	const {bytes, plan} = await readPlanFile(options.plan);
	if (plan.controller === null) {
		steps.push({name: 'controller-plan', description: 'the plan pins an experiment controller', passed: false, problems: ['the plan has no pinned controller; freeze it with --experiment-controller'], evidence: []});
		return finish(plan.plan_digest);
	}
	steps.push({name: 'controller-plan', description: 'the plan pins an experiment controller', passed: true, problems: [], evidence: []});
	const client = createControllerClient({identity: ControllerIdentity.parse(plan.controller.identity), evidenceDir: join(out, 'controller-calls')});
	const tasks = TasksResult.parse(plan.controller.tasks).tasks;
	const fresh = new FreshWorkspaces(join(out, 'fresh-workspaces'));
	const observe = (name: string, side: 'baseline' | 'candidate', candidate: string | null, turns: number, fabricate: boolean) =>
		writeObservations({dir: join(out, 'observations', name), label: side, candidate, turns, fabricate}, plan, bytes, tasks, client, fresh);
	const rel = (path: string): string => relative(out, path);

	const baseline = await observe('baseline', 'baseline', null, 4, false);
	const candidates = join(out, 'candidates');
	await mkdir(candidates);
	const first = join(candidates, 'candidate-1.ts');
	await writeFile(first, candidateSource(4));
	const honest = await observe('candidate-1', 'candidate', first, 3, false);
	const fabricated = await observe('candidate-1-fabricated', 'candidate', first, 3, true);
	const decisions = join(out, 'decisions');
	await mkdir(decisions);

	// The control: honest observations pass the compare's verification, so a rejection below is the grader's doing.
	const control = await compare(hlab, baseline, honest, join(decisions, 'decision-1.json'), out);
	steps.push(stepOf('honest-control', 'honest synthetic observations pass verification and get a durable decision from the pinned controller, whose every call is kept beside it', [
		...control.problems,
		...(control.decision !== null && unsatisfiedVerification(control.decision).length > 0 ? [`the honest observations failed verification: ${unsatisfiedVerification(control.decision).join('; ')}`] : []),
		...(control.decision !== null && !control.decision.checks.some(check => check.rule === 'controller') ? ['the decision does not record the pinned controller\'s accept'] : []),
		...await missingCallRecords(join(decisions, 'decision-1.evidence')),
	], [rel(baseline), rel(honest), 'decisions/decision-1.json', 'decisions/decision-1.evidence']));

	const forged = await compare(hlab, baseline, fabricated, join(decisions, 'fabricated.json'), out);
	const independentFails = (JSON.parse(await readFile(honest, 'utf8')) as {tasks: Array<{status: string}>}).tasks.filter(task => task.status === 'failed').length;
	steps.push(stepOf('fabricated-verdict', 'a report claiming success for tasks the independent grader fails cannot override the grader', [
		...forged.problems,
		...(independentFails === 0 ? ['the synthetic observations pass every task, so nothing was fabricated; the check cannot conclude'] : []),
		...(forged.decision?.decision === 'accept' ? ['the fabricated success verdict was accepted'] : []),
		...(forged.decision !== null && unsatisfiedVerification(forged.decision).length === 0 ? ['the comparison did not flag the fabricated verdicts against the pinned controller\'s re-score'] : []),
	], [rel(fabricated), 'decisions/fabricated.json']));

	// A side whose retained result cannot be re-scored must count as failing that task, whatever `accept` answers.
	const unscorable = await unscorableCopy(honest, join(out, 'observations', 'candidate-1-unscorable'));
	const lost = await compare(hlab, baseline, unscorable.report, join(decisions, 'unscorable.json'), out);
	const told = lost.decision === null ? null : await acceptRequest(join(decisions, 'unscorable.evidence'));
	steps.push(stepOf('rescore-failed', 'a side whose re-score failed cannot win: accept is told that task failed, and no answer of the controller accepts it', [
		...lost.problems,
		...(lost.decision?.decision === 'accept' ? ['a side whose re-score failed was accepted'] : []),
		...(lost.decision !== null && !unsatisfiedVerification(lost.decision).some(message => message.includes(unscorable.taskId)) ? [`the comparison did not flag the failed re-score of ${unscorable.taskId}`] : []),
		...(told === null ? ['the compare kept no accept call of the pinned controller in its evidence folder'] : []),
		...(told !== null && told.candidate.tasks.find(task => task.id === unscorable.taskId)?.passed !== false ? [`accept was not told that ${unscorable.taskId}, whose re-score failed, failed`] : []),
	], [rel(unscorable.report), 'decisions/unscorable.json', 'decisions/unscorable.evidence']));

	const firstDigest = await digestFile(join(decisions, 'decision-1.json'));
	const second = join(candidates, 'candidate-2.ts');
	await writeFile(second, candidateSource(2));
	const edited = await observe('candidate-2', 'candidate', second, 2, false);
	const next = await compare(hlab, baseline, edited, join(decisions, 'decision-2.json'), out);
	const rerun = await compare(hlab, baseline, edited, join(decisions, 'decision-1.json'), out);
	const firstAfter = await digestFile(join(decisions, 'decision-1.json'));
	const secondDecision = next.decision;
	steps.push(stepOf('edited-candidate', 'after editing the candidate, a new durable decision is written and the old one is kept', [
		...next.problems,
		...(secondDecision !== null && !JSON.stringify(secondDecision).includes(edited) ? ['the new decision does not cite the edited candidate\'s report'] : []),
		...(firstDigest === null ? ['the first decision was never written'] : []),
		...(firstDigest !== firstAfter ? ['the first decision was changed by a later comparison'] : []),
		...(rerun.exitCode === 0 ? ['a comparison into the existing decision file succeeded; decisions must never be overwritten'] : []),
	], [rel(second), rel(edited), 'decisions/decision-2.json']));
	return finish(plan.plan_digest);
}

function candidateSource(limit: number): string {
	return `// A synthetic step-policy candidate for the controller check; its observations are synthetic too.\nexport default {stopAfter: ${limit}};\n`;
}

function stepOf(name: string, description: string, problems: string[], evidence: string[]): ControllerCheckStep {
	return {name, description, passed: problems.length === 0, problems, evidence};
}

function unsatisfiedVerification(decision: DecisionView): string[] {
	return decision.checks.filter(check => check.rule === 'verification' && !check.satisfied).map(check => check.message);
}

/** Runs `HLAB eval --compare A,B --decision-output D` supervised and reads the decision it wrote. */
async function compare(hlab: string, baseline: string, candidate: string, output: string, cwd: string): Promise<{decision: DecisionView | null; exitCode: number | null; problems: string[]}> {
	const run = await runInGroup({argv: [hlab, 'eval', '--compare', `${baseline},${candidate}`, '--decision-output', output], cwd, deadlineMs: compareTimeoutMs, stdoutLimit: 8 * 1024 * 1024, stderrLimit: 1024 * 1024});
	const problems: string[] = [];
	if (run.record.failure !== null) problems.push(`the compare did not end by itself: ${run.record.failure_message}`);
	let decision: DecisionView | null = null;
	try {
		decision = DecisionView.parse(JSON.parse(await readFile(output, 'utf8')));
	} catch (error) {
		problems.push(`no readable decision at ${output} (exit ${run.record.exit_code}: ${run.stderr?.toString().trim().split('\n')[0] ?? ''}): ${(error as Error).message.split('\n')[0]}`);
	}
	return {decision, exitCode: run.record.exit_code, problems};
}

/** Copies a side and spoils one task's retained result.json, so the pinned controller cannot re-score it. */
async function unscorableCopy(report: string, dir: string): Promise<{report: string; taskId: string}> {
	const source = join(report, '..');
	await cp(source, dir, {recursive: true});
	const {tasks} = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as {tasks: Array<{task_id: string; evidence: Record<string, string>}>};
	const task = tasks[0]!;
	await writeFile(join(dir, task.evidence['result']!), 'not JSON: the retained result was damaged\n');
	return {report: join(dir, 'report.json'), taskId: task.task_id};
}

/** The params of the accept call a compare kept in its evidence folder, or null when it kept none. */
async function acceptRequest(evidence: string): Promise<{candidate: {tasks: Array<{id: string; passed: boolean}>}} | null> {
	const calls = join(evidence, 'controller', 'calls');
	const accept = existsSync(calls) ? (await readdir(calls)).find(name => name.endsWith('-accept')) : undefined;
	if (accept === undefined) return null;
	return (JSON.parse(await readFile(join(calls, accept, 'request.json'), 'utf8')) as {params: {candidate: {tasks: Array<{id: string; passed: boolean}>}}}).params;
}

/** Every controller call of a compare must leave its request, response, stderr and process record. */
async function missingCallRecords(evidence: string): Promise<string[]> {
	const calls = join(evidence, 'controller', 'calls');
	if (!existsSync(calls)) return [`the compare kept no controller calls in ${evidence}`];
	const names = await readdir(calls);
	const problems = names.flatMap(name => ['request.json', 'response.json', 'stderr.txt', 'process.json']
		.filter(file => !existsSync(join(calls, name, file)))
		.map(file => `the compare's controller call ${name} left no ${file}`));
	if (!names.some(name => name.endsWith('-score'))) problems.push('the compare kept no re-score call');
	if (!names.some(name => name.endsWith('-accept'))) problems.push('the compare kept no accept call');
	return problems;
}
