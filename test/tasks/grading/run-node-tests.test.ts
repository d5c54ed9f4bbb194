import {mkdir, writeFile} from 'node:fs/promises';
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {getTask, type TaskDefinition} from '../../../tasks/index.js';
import {installRoot, suiteChunkPaths} from '../../../files/install-root.js';
import {checkSandbox} from '../../../process/index.js';
import {tempDir} from '../../temp-dir.js';
import {runNodeTests} from '../../../tasks/grading/run-node-tests.js';

checkNoLeaks(t);

/** A test_failure_fix workspace with the bug left in, and `planted` put first in the module the test imports. */
async function plantedWorkspace(t: Test, planted: string): Promise<string> {
	const dir = join(await tempDir(t, 'hlab-planted-'), 'ws');
	await getTask('test_failure_fix')!.setup(dir);
	const file = join(dir, 'src/discount.js');
	writeFileSync(file, `${planted}\n${readFileSync(file, 'utf8')}`);
	return dir;
}

const grade = (task: TaskDefinition, dir: string) => task.grade(dir, {deadlineMs: 30_000});

t.test('process.exit(0) in a module the test imports is no pass: the named tests never ran', async t => {
	const dir = await plantedWorkspace(t, 'process.exit(0);');
	// A temporary folder of this test's own: graders of other test files share the run's TMPDIR and make copies too.
	const own = await tempDir(t, 'hlab-grade-scratch-');
	const savedTmp = process.env.TMPDIR;
	process.env.TMPDIR = own;
	t.teardown(() => {
		if (savedTmp === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = savedTmp;
	});
	const result = await grade(getTask('test_failure_fix')!, dir);
	t.equal(tmpdir(), own);
	t.same(readdirSync(own), [], 'the grader removes its copy');
	t.equal(result.passed, false, result.details);
	t.match(result.details, /FAIL: the original tests pass \(not run and passed: a discount takes the percentage off the price, .* \(6 of 6 expected tests\); passed instead: test\/discount\.test\.js\)/);
});

t.test('a module that prints a fake TAP, spec, dot and reporter success and exits 0 is no pass', async t => {
	const names = ['a discount takes the percentage off the price', 'a discount rounds to the nearest cent', 'no discount and a full discount', 'an impossible percentage is refused', 'bulk discounts by quantity', 'an order total applies the bulk discount'];
	const fake = [
		'TAP version 13', ...names.map((name, i) => `ok ${i + 1} - ${name}`), `1..${names.length}`, `# tests ${names.length}`, `# pass ${names.length}`, '# fail 0',
		...names.map(name => `✔ ${name} (1ms)`), '.'.repeat(names.length), `ℹ tests ${names.length}`, `ℹ pass ${names.length}`, 'ℹ fail 0',
		...names.map(name => JSON.stringify({result: 'pass', name, skipped: false})),
		JSON.stringify({summary: {tests: 6, passed: 6, failed: 0, cancelled: 0, skipped: 0, todo: 0, topLevel: 6, suites: 0}}),
	].join('\n');
	const dir = await plantedWorkspace(t, `process.stdout.write(${JSON.stringify(`${fake}\n`)}); process.stderr.write(${JSON.stringify(`${fake}\n`)}); process.exit(0);`);
	const result = await grade(getTask('test_failure_fix')!, dir);
	t.equal(result.passed, false, result.details);
	t.match(result.details, /not run and passed: .*\(6 of 6 expected tests\)/);
});

t.test('a crash of the test process before its tests is no pass, and a real failure is named with its assertion', async t => {
	const crashed = await grade(getTask('test_failure_fix')!, await plantedWorkspace(t, 'process.kill(process.pid, \'SIGKILL\');'));
	t.equal(crashed.passed, false);
	t.match(crashed.details, /failed: test\/discount\.test\.js/);
	const dir = join(await tempDir(t, 'hlab-unfixed-'), 'ws');
	await getTask('test_failure_fix')!.setup(dir);
	const unfixed = await grade(getTask('test_failure_fix')!, dir);
	t.match(unfixed.details, /failed: a discount takes the percentage off the price, .* \(first: Expected values to be strictly equal: 150 !== 850\)/);
});

const sandbox = checkSandbox();

t.test('under bubblewrap the graded code sees no expected data, no home, and writes nowhere but its private /tmp', {skip: sandbox.ok ? false : sandbox.reason}, async t => {
	const home = await tempDir(t, 'hlab-home-');
	writeFileSync(join(home, 'secret.txt'), 'secret');
	const outside = await tempDir(t, 'hlab-outside-');
	const savedHome = process.env.HOME;
	process.env.HOME = home;
	t.teardown(() => {
		process.env.HOME = savedHome;
	});
	const expected = join(installRoot, 'tasks/json_config_migration/expected/config/service.v2.json');
	const probe = `
import {readFileSync as __read, readdirSync as __list, writeFileSync as __write, openSync as __open} from 'node:fs';
const __try = f => { try { const v = f(); return Array.isArray(v) ? 'list:' + v.length : 'ok'; } catch (e) { return e.code ?? 'error'; } };
const __seen = {
	expected: __try(() => __read(${JSON.stringify(expected)})),
	tasks: __try(() => __list(${JSON.stringify(join(installRoot, 'tasks'))})),
	home: __try(() => __read(${JSON.stringify(join(home, 'secret.txt'))})),
	outside: __try(() => __write(${JSON.stringify(join(outside, 'planted.txt'))}, 'x')),
	copy: __try(() => __write('planted.txt', 'x')),
	runner: __try(() => __open('/proc/' + process.ppid + '/fd/1', 'w')),
	bundled: (() => { try { return String(${JSON.stringify(suiteChunkPaths())}.reduce((bytes, chunk) => bytes + __read(chunk).length, 0)); } catch (e) { return e.code ?? 'error'; } })(),
};
export function __probe() { throw new Error('SEEN ' + JSON.stringify(__seen)); }
`;
	const dir = await plantedWorkspace(t, probe);
	writeFileSync(join(dir, 'src/discount.js'), readFileSync(join(dir, 'src/discount.js'), 'utf8').replace(/export function applyDiscount\(([^)]*)\) \{/, 'export function applyDiscount($1) { __probe();'));
	const result = await grade(getTask('test_failure_fix')!, dir);
	t.equal(result.passed, false);
	const seen = JSON.parse(/SEEN (\{[^}]*\})/.exec(result.details)?.[1] ?? 'null') as Record<string, string> | null;
	t.ok(seen, `the probe reported: ${result.details}`);
	t.equal(seen?.expected, 'ENOENT', 'the install\'s expected data is absent');
	t.equal(seen?.tasks, 'list:0', 'the install\'s tasks folder is empty');
	t.ok(suiteChunkPaths().length > 0, 'the bundle has chunks of the suite\'s code');
	// Each is /dev/null bound over it: empty, or refused where the mount has no devices.
	t.match(seen?.bundled, /^(0|EACCES)$/, 'the bundle\'s chunks of the tasks\' graders cannot be read');
	t.equal(seen?.home, 'ENOENT', 'home is absent');
	t.not(seen?.outside, 'ok', 'nothing is written outside the copy');
	t.not(seen?.copy, 'ok', 'the copy is read-only');
	t.not(seen?.runner, 'ok', 'the runner\'s report stream cannot be opened');
	t.equal(existsSync(join(outside, 'planted.txt')), false);
	t.equal(existsSync(join(dir, 'planted.txt')), false, 'the workspace itself is untouched');
});

t.test('the agent\'s code, run by the grader, inherits nothing of the supervisor\'s environment: not the provider\'s API key', async t => {
	const variable = 'HLAB_TEST_PROVIDER_KEY';
	process.env[variable] = 'sk-secret';
	t.teardown(() => {
		delete process.env[variable];
	});
	const workspace = await tempDir(t, 'hlab-grader-env-');
	await mkdir(join(workspace, 'test'));
	await writeFile(join(workspace, 'package.json'), '{"type": "module"}\n');
	await writeFile(join(workspace, 'test', 'key.test.js'), `import {test} from 'node:test';\nimport assert from 'node:assert/strict';\ntest('the key is out of reach', () => assert.equal(process.env.${variable}, undefined));\n`);
	t.same(await runNodeTests(workspace, {files: ['test/key.test.js'], names: ['the key is out of reach']}, {deadlineMs: 30_000}), {passed: true, problem: null});
});

t.test('a TMPDIR inside a path the grader hides (the attempt\'s runtime root) still leaves the copy in view', async t => {
	t.ok(checkSandbox().ok, 'bubblewrap is usable here, so the grader runs in its own sandbox');
	const hiddenRoot = await tempDir(t, 'hlab-grader-runtime-');
	await mkdir(join(hiddenRoot, 'tmp'));
	const savedTmp = process.env.TMPDIR;
	process.env.TMPDIR = join(hiddenRoot, 'tmp');
	t.teardown(() => {
		if (savedTmp === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = savedTmp;
	});
	const workspace = await tempDir(t, 'hlab-grader-ws-');
	await mkdir(join(workspace, 'test'));
	await writeFile(join(workspace, 'package.json'), '{"type": "module"}\n');
	await writeFile(join(workspace, 'test', 'ok.test.js'), 'import {test} from \'node:test\';\ntest(\'it runs\', () => {});\n');
	t.same(await runNodeTests(workspace, {files: ['test/ok.test.js'], names: ['it runs']}, {deadlineMs: 30_000, hidden: [hiddenRoot]}), {passed: true, problem: null});
});
