import {existsSync, readdirSync, statSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runAttempt} from '../../supervisor/attempt/run-attempt.js';
import {buildPlan, writePlan} from '../../supervisor/plan/freeze.js';
import {checkNoLeaks} from '../leak-check.js';
import {freeze, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

const mib = 1024 ** 2;

/** A response script turn that runs one shell command. */
const command = (text: string): object => ({tool_calls: [{type: 'function', function: {name: 'run_command', arguments: {command: text, timeout_seconds: 50}}}]});
const done = (summary: string): object => ({tool_calls: [{type: 'function', function: {name: 'done', arguments: {summary}}}]});

/** The concurrent task that must pass whatever its neighbour does: a wait (so the two overlap), then the answer. */
const passing = [command('sleep 2'), done('It finished at 12:25.')];

async function script(dir: string, tasks: Record<string, object[]>): Promise<string> {
	const path = join(dir, 'responses.json');
	await writeFile(path, JSON.stringify({schema: 'harness-lab/response-script@1', tasks}));
	return path;
}

t.test('a task that writes past its workspace limit is ended with reason workspace_limit, and the task beside it passes', async t => {
	const dir = await scratch(t);
	// The write finishes in well under a second; the sleep after it is what the quota cuts short.
	const responses = await script(dir, {sales_report: [command('head -c 64M /dev/zero > big; sleep 40'), done('wrote')], answer_from_prompt: passing});
	const plan = await freeze({dir, tasks: 'sales_report,answer_from_prompt', policy: {concurrency: 2}, responsesPath: responses, workspaceLimitBytes: 16 * mib});
	const outcome = await runAttempt({planPath: plan, artifacts: join(dir, 'evidence'), candidatePath: null, keepWorkdirs: false, configPath: null, quiet: true, cwd: dir});
	const [over, beside] = outcome.report.tasks;
	t.equal(over!.reason, 'workspace_limit', over!.message ?? '');
	t.match(over!.message, /over the plan's workspace limit of 16777216 bytes/);
	t.ok(over!.wall_ms! < 30_000, `ended when it went over, not at its command's end (${over!.wall_ms} ms)`);
	t.equal(beside!.status, 'passed', `the concurrent task passed: ${beside!.message}`);
	t.equal(outcome.report.tasks.filter(task => task.status === 'passed').length, 1);
	t.notOk(existsSync(join(dir, 'evidence', 'tasks', '001-sales_report', 'runtime-state')), 'the runtime state was dropped as usual');
});

t.test('a large sparse file takes no room in the workspace, so it is within the limit, and the kept workspace exports it still sparse', async t => {
	const dir = await scratch(t);
	const responses = await script(dir, {sales_report: [command('truncate -s 10G sparse && head -c 1M /dev/urandom > dense'), done('made')], answer_from_prompt: passing});
	const plan = await freeze({dir, tasks: 'sales_report,answer_from_prompt', policy: {concurrency: 2}, responsesPath: responses, workspaceLimitBytes: 16 * mib});
	const evidence = join(dir, 'evidence');
	const outcome = await runAttempt({planPath: plan, artifacts: evidence, candidatePath: null, keepWorkdirs: true, configPath: null, quiet: true, cwd: dir});
	const [made, beside] = outcome.report.tasks;
	t.not(made!.reason, 'workspace_limit', 'ten gigabytes of holes take no room: the quota counts allocated blocks');
	t.equal(beside!.status, 'passed');
	const workspace = join(evidence, 'tasks', '001-sales_report', 'workspace');
	t.same(readdirSync(workspace).filter(name => name === 'sparse' || name === 'dense').sort(), ['dense', 'sparse']);
	const sparse = statSync(join(workspace, 'sparse'));
	t.equal(sparse.size, 10 * 1024 ** 3, 'the exported file keeps its size');
	// Without the hole-keeping copy the export writes all ten gigabytes (Node's copyFile fills the holes).
	t.ok(sparse.blocks * 512 <= 64 * 1024, `and takes (almost) no room: ${sparse.blocks * 512} bytes allocated`);
	const dense = statSync(join(workspace, 'dense'));
	t.ok(dense.blocks * 512 >= mib, 'a written file is copied whole');
});

t.test('a runtime root with less free space than one workspace may take fails each task runtime_space before it starts', async t => {
	const dir = await scratch(t);
	const responses = await script(dir, {sales_report: [command('touch started'), done('made')], answer_from_prompt: passing});
	// A pebibyte: more than any runtime root here has free.
	const plan = await freeze({dir, tasks: 'sales_report,answer_from_prompt', policy: {concurrency: 2}, responsesPath: responses, workspaceLimitBytes: 1024 ** 5});
	const evidence = join(dir, 'evidence');
	const outcome = await runAttempt({planPath: plan, artifacts: evidence, candidatePath: null, keepWorkdirs: true, configPath: null, quiet: true, cwd: dir});
	t.same(outcome.report.tasks.map(task => task.reason), ['runtime_space', 'runtime_space']);
	t.match(outcome.report.tasks[0]!.message, /^not started: the runtime root .* bytes free, less than the 1125899906842624 bytes one workspace may take \(an infrastructure failure/);
	t.same(outcome.report.tasks.map(task => task.outcome), [null, null], 'neither ran');
	t.notOk(existsSync(join(evidence, 'tasks', '001-sales_report', 'workspace', 'started')), 'nothing of the task ran');
});

t.test('a tool command that allocates past the memory limit fails as a command the model sees; the task goes on and the task beside it passes', async t => {
	const dir = await scratch(t);
	const allocate = `python3 -c 'bytearray(600 * 1024 * 1024)' 2>&1 | tail -n 1; echo "allocation exit=\${PIPESTATUS[0]}"`;
	const responses = await script(dir, {sales_report: [command(allocate), done('tried')], answer_from_prompt: passing});
	const plan = await freeze({dir, tasks: 'sales_report,answer_from_prompt', policy: {concurrency: 2}, responsesPath: responses, memoryLimitBytes: 256 * mib});
	const evidence = join(dir, 'evidence');
	const outcome = await runAttempt({planPath: plan, artifacts: evidence, candidatePath: null, keepWorkdirs: false, configPath: null, quiet: true, cwd: dir});
	const [tried, beside] = outcome.report.tasks;
	t.equal(beside!.status, 'passed', 'the concurrent task passed');
	t.not(tried!.reason, 'crash', 'the task itself did not die: it went on to its next turn');
	t.equal(tried!.outcome?.steps, 2, 'both turns ran');
	const messages = await readFile(join(evidence, tried!.evidence.messages!), 'utf8');
	// Without the limit the allocation succeeds: `allocation exit=0` and no MemoryError.
	t.match(messages, /MemoryError[\s\S]*allocation exit=1/, 'the model saw the refused allocation');
	const journal = await readFile(join(evidence, tried!.evidence.journal!), 'utf8');
	t.match(journal, /"memory_limit":\{"bytes":268435456,"by":"(rlimit_data|cgroup)"/, 'the command\'s process record names its bound');
});

t.test('under --sandbox the same limits hold: the quota ends the writer, the sandboxed task runner\'s commands are memory-bounded', async t => {
	const dir = await scratch(t);
	const allocate = `python3 -c 'bytearray(600 * 1024 * 1024)' 2>&1 | tail -n 1; echo "allocation exit=\${PIPESTATUS[0]}"`;
	const responses = await script(dir, {
		sales_report: [command('head -c 64M /dev/zero > big; sleep 40'), done('wrote')],
		answer_from_prompt: [command(allocate), done('It finished at 12:25.')],
	});
	await writeFile(join(dir, 'policy.json'), JSON.stringify({concurrency: 2}));
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: 'sales_report,answer_from_prompt', maxSteps: 4, deadlineMs: 60_000,
		policyPath: join(dir, 'policy.json'), controllerPath: null, configPath: null, cwd: dir, sandbox: true, responsesPath: responses,
		workspaceLimitBytes: 16 * mib, memoryLimitBytes: 256 * mib,
	});
	await writePlan(join(dir, 'plan.json'), plan);
	const evidence = join(dir, 'evidence');
	const outcome = await runAttempt({planPath: join(dir, 'plan.json'), artifacts: evidence, candidatePath: null, keepWorkdirs: false, configPath: null, quiet: true, cwd: dir});
	t.same(outcome.report.integrity, {label: 'contained', reasons: []}, 'a sandboxed attempt');
	const [over, bounded] = outcome.report.tasks;
	t.equal(over!.reason, 'workspace_limit', over!.message ?? '');
	t.ok(over!.wall_ms! < 30_000, `ended when it went over (${over!.wall_ms} ms)`);
	t.equal(bounded!.status, 'passed', `the task beside it passed: ${bounded!.message}`);
	const messages = await readFile(join(evidence, bounded!.evidence.messages!), 'utf8');
	t.match(messages, /MemoryError[\s\S]*allocation exit=1/, 'the sandboxed command\'s allocation was refused');
});

t.test('the grader runs the agent\'s code under the task\'s memory limit too: a module that hogs memory at import fails its tests', async t => {
	const dir = await scratch(t);
	const implementation = [
		'export const hog = Buffer.alloc(512 * 1024 * 1024, 1);',
		'export function slugify(title, maxLength = 40) {',
		"\tconst slug = title.normalize('NFKD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');",
		'\tif (slug.length <= maxLength) return slug;',
		'\tconst cut = slug.slice(0, maxLength);',
		"\tconst hyphen = slug[maxLength] === '-' ? maxLength : cut.lastIndexOf('-');",
		"\treturn (hyphen > 0 ? cut.slice(0, hyphen) : cut).replace(/-+$/, '');",
		'}',
	].join('\n');
	const responses = await script(dir, {implement_function: [
		{tool_calls: [{type: 'function', function: {name: 'write_file', arguments: {path: 'src/slugify.js', content: implementation}}}]},
		done('implemented'),
	]});
	const run = async (name: string, memoryLimitBytes?: number) => {
		const plan = await freeze({dir, name, tasks: 'implement_function', policy: {concurrency: 1}, responsesPath: responses, ...(memoryLimitBytes === undefined ? {} : {memoryLimitBytes})});
		return (await runAttempt({planPath: plan, artifacts: join(dir, name), candidatePath: null, keepWorkdirs: false, configPath: null, quiet: true, cwd: dir})).report.tasks[0]!;
	};
	const roomy = await run('roomy');
	t.equal(roomy.status, 'passed', `under the default limit the implementation passes: ${roomy.message}`);
	const tight = await run('tight', 256 * mib);
	t.equal(tight.status, 'failed', 'under a quarter gigabyte its tests cannot even import it');
	t.equal(tight.reason, null, 'a failed grade, not a failure of the supervisor');
});
