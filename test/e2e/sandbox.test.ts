import {existsSync, readdirSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {checkSandbox, runInGroup} from '../../process/index.js';
import {distPath, installRoot, suiteChunkPaths} from '../../files/install-root.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {runAttempt, type AttemptOutcome} from '../../supervisor/attempt/run-attempt.js';
import {buildPlan, writePlan} from '../../supervisor/plan/freeze.js';
import {checkNoLeaks} from '../leak-check.js';
import {attempt, scratch} from './experiment-fixture.js';
import {evalEntry} from './install-copy.js';

checkNoLeaks(t);

const usable = checkSandbox();
/** Tasks whose reference behaviour runs shell commands in the workspace. */
const tasks = 'implement_function,test_failure_fix';

async function freezeSandboxed(dir: string): Promise<string> {
	const policyPath = join(dir, 'policy.json');
	await writeFile(policyPath, JSON.stringify({concurrency: 1}));
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: tasks, maxSteps: 12, deadlineMs: 60_000,
		policyPath, controllerPath: null, configPath: null, cwd: dir, sandbox: true,
	});
	const path = join(dir, 'plan.json');
	await writePlan(path, plan);
	return path;
}

/** `hlab eval ...` with only `bin` on PATH: where it has no bwrap, or has one the kernel refuses namespaces to. */
function hlabWithPath(bin: string, args: string[]) {
	return runInGroup({argv: [process.execPath, evalEntry(), 'eval', ...args], env: {PATH: bin}, deadlineMs: 120_000});
}

/** `hlab eval ...` where bwrap cannot be found: PATH names no directory that has it. */
function hlabWithoutBwrap(args: string[]) {
	return hlabWithPath('/nonexistent', args);
}

/** A bwrap that answers its version but, like one on a kernel without user namespaces, cannot create a sandbox. */
async function refusedBwrap(dir: string): Promise<string> {
	const bin = join(dir, 'bin');
	await mkdir(bin);
	const version = usable.ok ? usable.version : '0.0.0';
	await writeFile(join(bin, 'bwrap'), `#!/bin/sh\nif [ "$1" = --version ]; then echo 'bubblewrap ${version}'; exit 0; fi\necho 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n`, {mode: 0o755});
	return bin;
}

t.test('a sandboxed plan runs its tool commands under bubblewrap, and the tasks still pass', {skip: usable.ok ? false : usable.reason}, async t => {
	const dir = await scratch(t);
	const planPath = await freezeSandboxed(dir);
	const plan = JSON.parse(await readFile(planPath, 'utf8')) as {sandbox?: {kind: string; version: string}};
	t.same(plan.sandbox, {kind: 'bubblewrap', version: usable.ok ? usable.version : ''}, 'the plan freezes the sandbox');
	const {dir: evidence, report} = await attempt(planPath, join(dir, 'run'));
	t.equal(report.passed, true, report.tasks.map(task => task.message).join('; '));
	const journal = await readFile(join(evidence, report.tasks[0]!.evidence.journal!), 'utf8');
	const commands = journal.split('\n').filter(Boolean).map(line => JSON.parse(line) as {type?: string; kind?: string; process?: {sandbox?: {hidden: string[]; writable: string[]; network: boolean}}})
		.filter(entry => entry.process !== undefined);
	t.ok(commands.length > 0, 'the journal has tool commands');
	for (const command of commands) {
		t.equal(command.process!.sandbox?.network, false, 'each ran without network');
		t.ok(command.process!.sandbox?.hidden.includes(evidence), 'with the evidence directory hidden');
		t.ok(command.process!.sandbox?.hidden.includes(planPath), 'and the plan');
	}
});

t.test('--sandbox is refused at freeze, in one line, where bwrap is missing', async t => {
	const dir = await scratch(t);
	const run = await hlabWithoutBwrap(['--freeze', join(dir, 'plan.json'), '--task', tasks, '--sandbox']);
	t.equal(run.record.exit_code, 2);
	const stderr = run.stderr?.toString() ?? '';
	t.equal(stderr.trim().split('\n').length, 1, stderr);
	t.match(stderr, /--sandbox: bwrap is not on PATH: install bubblewrap; fix: apt-get install -y bubblewrap$/m, 'with the one command that fixes it');
	t.notOk(existsSync(join(dir, 'plan.json')), 'and no plan is written');
});

t.test('--sandbox is refused at freeze where bwrap cannot create namespaces, with the fix', async t => {
	const dir = await scratch(t);
	const run = await hlabWithPath(await refusedBwrap(dir), ['--freeze', join(dir, 'plan.json'), '--task', tasks, '--sandbox']);
	t.equal(run.record.exit_code, 2);
	const stderr = run.stderr?.toString() ?? '';
	t.equal(stderr.trim().split('\n').length, 1, stderr);
	t.match(stderr, /--sandbox: \S+\/bwrap cannot create a sandbox here \(bwrap: No permissions to creating new namespace.*\); fix: (sysctl -w |docker run --privileged)/);
	t.notOk(existsSync(join(dir, 'plan.json')));
});

t.test('a sandboxed plan is refused at admission where bwrap cannot create namespaces: no task runs, and it is never labelled contained', async t => {
	const dir = await scratch(t);
	const planPath = await freezeSandboxed(dir);
	const artifacts = join(dir, 'run');
	const run = await hlabWithPath(await refusedBwrap(dir), ['--plan', planPath, '--artifacts', artifacts, '--json']);
	t.equal(run.record.exit_code, 1, run.stderr?.toString() ?? '');
	const report = Report.parse(JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8')));
	t.ok(report.admission.differences.some(line => /^sandbox: the plan runs under bubblewrap .*cannot create a sandbox here .*; fix: \S/.test(line)), report.admission.differences.join('\n'));
	t.ok(report.tasks.every(task => task.reason === 'admission' && task.outcome === null), 'no task ran');
	t.same(report.integrity, {label: 'trusted-code', reasons: ['sandbox-unavailable']});
});

t.test('a sandboxed plan is refused at admission where bwrap is missing: nothing runs unsandboxed', {skip: usable.ok ? false : usable.reason}, async t => {
	const dir = await scratch(t);
	const planPath = await freezeSandboxed(dir);
	const artifacts = join(dir, 'run');
	const run = await hlabWithoutBwrap(['--plan', planPath, '--artifacts', artifacts, '--json']);
	t.equal(run.record.exit_code, 1, run.stderr?.toString() ?? '');
	const report = Report.parse(JSON.parse(await readFile(join(artifacts, 'report.json'), 'utf8')));
	t.equal(report.admission.admitted, false);
	t.ok(report.admission.differences.some(line => /^sandbox: the plan runs under bubblewrap .*bwrap is not on PATH: install bubblewrap; fix: apt-get install -y bubblewrap$/.test(line)), report.admission.differences.join('\n'));
	t.ok(report.tasks.every(task => task.reason === 'admission' && task.outcome === null), 'no task ran');
});

/**
 * `<<path=state>>` for each path: `dir:N` entries, `file:N` bytes, or `absent`; then whether each write got through.
 * Written `<""<` in the command, so that only its output (not the command the journal records) reads as a finding.
 */
function probeCommand(paths: string[], writes: string[]): string {
	const probe = paths.map(path => `p='${path}'; if [ -d "$p" ]; then echo "<""<$p=dir:$(ls -A "$p" | wc -l | tr -d ' ')>>"; elif [ -e "$p" ]; then echo "<""<$p=file:$(cat "$p" 2>/dev/null | wc -c | tr -d ' ')>>"; else echo "<""<$p=absent>>"; fi`);
	const write = writes.map(path => `if echo forged > '${path}' 2>/dev/null; then echo "<""<${path}=written>>"; else echo "<""<${path}=refused>>"; fi`);
	return [...probe, ...write].join('; ');
}

/** A slugify module that, when imported, tries to write each of `targets`, and implements nothing. */
function forgingModule(targets: string[]): string {
	return `import {writeFileSync} from 'node:fs';\nfor (const target of ${JSON.stringify(targets)}) { try { writeFileSync(target, 'forged'); } catch {} }\nexport function slugify() { return ''; }\n`;
}

/** What the probe said, path by path, from the task's recorded evidence (the tool result the model saw). */
async function probed(evidence: string, files: Record<string, string>): Promise<Map<string, string>> {
	const text = (await Promise.all(Object.values(files).map(file => readFile(join(evidence, file), 'utf8').catch(() => '')))).join('\n');
	return new Map([...text.matchAll(/<<([^=<>]+)=([^<>]+)>>/g)].map(match => [match[1]!, match[2]!] as const));
}

t.test('under --sandbox a tool command finds every hidden path absent or empty, and writes only its workspace', async t => {
	// Outside /tmp, which the sandbox replaces anyway: only the hidden list can hide these.
	const root = await mkdtemp('/var/tmp/hlab-hidden-');
	t.teardown(() => rm(root, {recursive: true, force: true}));
	const evidence = join(root, 'run');
	const runtimeRoot = join(root, 'runtime');
	const otherTask = join(runtimeRoot, 'hlab-other-attempt', 'state');
	const stateHome = join(root, 'state');
	const keys = join(stateHome, 'harness-lab', 'keys');
	const secret = join(root, 'redis-secret');
	await mkdir(otherTask, {recursive: true});
	await writeFile(join(otherTask, 'expected.json'), '{"answer": 42}\n');
	await mkdir(keys, {recursive: true});
	await writeFile(join(keys, 'attempt.key'), 'MAC-KEY\n');
	await writeFile(secret, 'redis-password\n');
	const home = homedir();
	const suite = join(installRoot, 'tasks', 'sales_report');
	const outside = join(root, 'outside.txt');
	const graderOutside = join(root, 'outside-by-grader.txt');
	const expectations: Array<[string, RegExp]> = [
		[evidence, /^dir:0$/], [join(evidence, 'plan.json'), /^absent$/], [join(evidence, 'ledger.jsonl'), /^absent$/],
		[join(root, 'plan.json'), /^file:0$/],
		[join(installRoot, 'tasks'), /^dir:0$/], [join(suite, 'task.ts'), /^absent$/], [distPath('tasks'), /^dir:0$/], [distPath('tasks/sales_report/task.js'), /^absent$/],
		[join(installRoot, 'examples'), /^dir:0$/], [join(installRoot, 'test'), /^dir:0$/],
		[home, /^dir:0$/],
		[join(stateHome, 'harness-lab'), /^dir:0$/], [join(keys, 'attempt.key'), /^absent$/],
		[join(otherTask, 'expected.json'), /^absent$/],
		[secret, /^file:0$/],
		// The bundle's chunks that inline the suite's graders and expected answers (the CLI's bundle, scripts/bundle.mjs).
		...suiteChunkPaths().map((chunk): [string, RegExp] => [chunk, /^file:0$/]),
	];
	t.ok(suiteChunkPaths().length > 0, 'the bundle has suite chunks to hide');
	const before = expectations.filter(([path]) => !path.startsWith(evidence) && path !== join(root, 'plan.json'));
	for (const [path] of before) t.ok(existsSync(path), `${path} is there outside the sandbox`);
	t.ok(readdirSync(home).length > 0, 'home is not empty outside');
	const script = {schema: 'harness-lab/response-script@1', tasks: {sales_report: [
		{tool_calls: [{type: 'function', function: {name: 'run_command', arguments: {command: probeCommand(expectations.map(([path]) => path), [join(evidence, 'forged.txt'), outside, join(installRoot, 'tasks', 'forged.txt'), 'inside.txt'])}}}]},
		{tool_calls: [{type: 'function', function: {name: 'done', arguments: {summary: 'looked around'}}}]},
	], implement_function: [
		// The agent's code runs when the grader's tests import it: it tries to forge evidence from there.
		{tool_calls: [{type: 'function', function: {name: 'write_file', arguments: {path: 'src/slugify.js', content: forgingModule([join(evidence, 'forged-by-grader.txt'), graderOutside])}}}]},
		{tool_calls: [{type: 'function', function: {name: 'done', arguments: {summary: 'implemented'}}}]},
	]}};
	await writeFile(join(root, 'responses.json'), JSON.stringify(script));
	await writeFile(join(root, 'policy.json'), JSON.stringify({concurrency: 1}));
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: 'sales_report,implement_function', maxSteps: 4, deadlineMs: 60_000,
		policyPath: join(root, 'policy.json'), controllerPath: null, configPath: null, cwd: root, sandbox: true, responsesPath: join(root, 'responses.json'),
	});
	await writePlan(join(root, 'plan.json'), plan);
	const saved = {runtime: process.env.HLAB_RUNTIME_ROOT, state: process.env.XDG_STATE_HOME};
	process.env.HLAB_RUNTIME_ROOT = runtimeRoot;
	process.env.XDG_STATE_HOME = stateHome;
	let outcome: AttemptOutcome;
	try {
		outcome = await runAttempt({planPath: join(root, 'plan.json'), artifacts: evidence, candidatePath: null, keepWorkdirs: true, configPath: null, quiet: true, cwd: root, secretFiles: [secret]});
	} finally {
		restore('HLAB_RUNTIME_ROOT', saved.runtime);
		restore('XDG_STATE_HOME', saved.state);
	}
	for (const [path] of expectations.filter(entry => !before.includes(entry))) t.ok(existsSync(path), `${path} is there outside the sandbox`);
	const seen = await probed(evidence, outcome.report.tasks[0]!.evidence);
	t.ok(seen.size > 0, 'the probe ran and its output was recorded');
	for (const [path, expected] of expectations) t.match(seen.get(path), expected, `${path}: ${seen.get(path)}`);
	t.equal(seen.get(join(evidence, 'forged.txt')), 'refused', 'no write into the evidence');
	t.equal(seen.get(outside), 'refused', 'nor beside it');
	t.equal(seen.get(join(installRoot, 'tasks', 'forged.txt')), 'refused', 'nor into the suite');
	t.equal(seen.get('inside.txt'), 'written', 'the workspace is writable');
	t.notOk(existsSync(join(evidence, 'forged.txt')));
	t.notOk(existsSync(outside));
	t.notOk(existsSync(join(installRoot, 'tasks', 'forged.txt')));
	t.equal(outcome.report.tasks[1]!.task_id, 'implement_function');
	t.notOk(existsSync(join(evidence, 'forged-by-grader.txt')), 'the agent\'s code, run by the grader, cannot write the evidence');
	t.notOk(existsSync(graderOutside), 'nor anywhere outside the workspace');
	t.same(outcome.report.integrity, {label: 'contained', reasons: []}, 'the built-in engine under --sandbox is contained');
	const record = JSON.parse(await readFile(join(evidence, 'attempt.json'), 'utf8')) as {integrity: unknown};
	t.same(record.integrity, {label: 'contained', reasons: []}, 'and attempt.json says so');
});

function restore(name: string, value: string | undefined): void {
	if (value === undefined) delete process.env[name];
	else process.env[name] = value;
}
