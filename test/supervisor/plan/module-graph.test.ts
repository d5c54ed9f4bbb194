import {existsSync} from 'node:fs';
import {mkdir, readFile, readdir, utimes, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t, {type Test} from 'tap';
import {isRunning, readTable} from '../../../process/proc-table.js';
import {digestFile} from '../../../files/digest.js';
import {installRoot} from '../../../files/install-root.js';
import {builtinTasks} from '../../../tasks/index.js';
import {builtinScorer} from '../../../supervisor/plan/identities.js';
import {digestModuleGraph, ModuleGraphError} from '../../../supervisor/plan/module-graph.js';
import {deciderEntries, taskEntry} from '../../../supervisor/plan/scorer-entries.js';
import {checkNoLeaks} from '../../leak-check.js';
import {inNewProcess} from '../../new-process.js';
import {tempDir} from '../../temp-dir.js';
import {writeTree} from '../../write-tree.js';

checkNoLeaks(t);

const moduleGraph = async (root: string, entries: string[]): Promise<string[]> => Object.keys(await digestModuleGraph(root, entries));

/** A tiny installation: dist/ modules that import each other, a package and a builtin. */
async function installation(files: Record<string, string>): Promise<string> {
	const root = await tempDir(t, 'hlab-graph-');
	await writeTree(root, files);
	return root;
}

/** Children of this process still running, after giving a stopped one a moment to go. */
async function runningChildren(): Promise<string[]> {
	let left: string[] = [];
	for (let wait = 0; wait < 20; wait += 1) {
		left = readTable().filter(stat => stat.ppid === process.pid && isRunning(stat)).map(stat => `${stat.pid} (${stat.comm})`);
		if (left.length === 0) break;
		await sleep(50);
	}
	return left;
}

t.test('the graph is the entries and the project files they import, never packages or builtins', async t => {
	const root = await installation({
		'dist/grader.js': "import {z} from 'zod';\nimport {readFile} from 'node:fs/promises';\nimport {check} from './helpers/check.js';\nexport const grade = () => check(z, readFile);\n",
		'dist/helpers/check.js': "import './leaf.js';\nexport const check = (a, b) => [a, b];\n",
		'dist/helpers/leaf.js': 'export {};\n',
		'dist/cli/help.js': "import '../grader.js';\nexport const help = 'not deciding';\n",
	});
	t.same(await moduleGraph(root, ['grader.js']), ['dist/grader.js', 'dist/helpers/check.js', 'dist/helpers/leaf.js']);
	t.same(await runningChildren(), [], "esbuild's service process is stopped once the graph is known");
});

t.test('an import added to a file of the graph is seen by the next call in the same process', async t => {
	const root = await installation({
		'dist/decide.js': 'export const decide = 1;\n',
		'dist/rule.js': 'export const rule = 2;\n',
	});
	t.same(await moduleGraph(root, ['decide.js']), ['dist/decide.js']);
	t.same(await moduleGraph(root, ['decide.js']), ['dist/decide.js'], 'reused while nothing changed');
	await writeFile(join(root, 'dist/decide.js'), "import {rule} from './rule.js';\nexport const decide = rule;\n");
	const graph = await digestModuleGraph(root, ['decide.js']);
	t.same(Object.keys(graph), ['dist/decide.js', 'dist/rule.js']);
	t.equal(graph['dist/decide.js'], await digestFile(join(root, 'dist/decide.js')), 'each file with the digest of its bytes now');
});

t.test('a graph that no longer links is an error with a reason, naming the file and the import', async t => {
	const root = await installation({'dist/decide.js': "import './gone.js';\n"});
	const error = await moduleGraph(root, ['decide.js']).then(() => null, (caught: unknown) => caught);
	t.ok(error instanceof ModuleGraphError);
	t.equal((error as ModuleGraphError).reason, 'module_graph');
	t.match((error as Error).message, /dist\/decide\.js: Could not resolve "\.\/gone\.js"/);
	const missing = await moduleGraph(root, ['moved.js']).then(() => null, (caught: unknown) => caught);
	t.match((missing as Error).message, /dist\/moved\.js/, 'a moved entry point is named');
	t.same(await runningChildren(), [], 'a failed build stops the service too');
});

t.test('every named entry point exists in the compiled installation', async t => {
	for (const entry of [...deciderEntries, ...builtinTasks.map(task => taskEntry(task.id))]) t.ok(existsSync(join(installRoot, 'dist', entry)), entry);
});

t.test('the built-in scorer holds each kind of deciding file and leaves the CLI out', async t => {
	const files = Object.keys((await builtinScorer(builtinTasks)).files);
	for (const name of [
		'dist/tasks/grading/run-node-tests.js',
		'dist/tasks/grading/grade-checks.js',
		'dist/supervisor/attempt/report/report-schema.js',
		'dist/supervisor/plan/plan-digest.js',
		'dist/supervisor/host/supervised-timing.js',
		'dist/engine/loop/usage-meter.js',
		'dist/engine/tools/workspace-path.js',
		'dist/supervisor/compare/acceptance.js',
		'tasks/json_config_migration/expected/config/service.v2.json',
		'tasks/test_failure_fix/files/src/discount.js',
		'tasks/test_failure_fix/task.ts',
	]) t.ok(files.includes(name), name);
	t.same(files.filter(name => name.startsWith('dist/cli/')), [], 'the CLI does not decide');
	t.same(files.filter(name => name.endsWith('.ts') && !name.startsWith('tasks/')), [], 'no source outside tasks/: an installed package ships only dist/ of those');
	t.same(files.filter(name => name.includes('node_modules') || name.startsWith('/')), [], 'packages are fingerprinted elsewhere, and every name is relative to the installation');
});

/** The graph as a fresh process computes it with its own cache folder, names and digests. */
async function digestsInNewProcess(t: Test, root: string, cache: string, entry: string): Promise<Record<string, string | null>> {
	const run = await inNewProcess('supervisor/plan/module-graph.js', `m.digestModuleGraph(${JSON.stringify(root)}, [${JSON.stringify(entry)}])`, cache);
	t.equal(run.code, 0, run.stderr);
	return run.value as Record<string, string | null>;
}

/** The graph's names as a fresh process computes them. */
async function graphInNewProcess(t: Test, root: string, cache: string, entry: string): Promise<string[]> {
	return Object.keys(await digestsInNewProcess(t, root, cache, entry));
}

t.test('a graph saved by one process is reused by the next, and an import added since is still seen', async t => {
	const root = await installation({
		'dist/decide.js': 'export const decide = 1;\n',
		'dist/rule.js': 'export const rule = 2;\n',
	});
	const cache = await tempDir(t, 'hlab-graph-cache-');
	t.same(await graphInNewProcess(t, root, cache, 'decide.js'), ['dist/decide.js']);
	const [saved, ...others] = await savedGraphs(cache);
	t.same([Object.keys(saved!.files), others], [['dist/decide.js'], []], 'the graph is saved for later processes, in a file of its own');
	await writeFile(join(root, 'dist/decide.js'), "import {rule} from './rule.js';\nexport const decide = rule;\n");
	t.same(await graphInNewProcess(t, root, cache, 'decide.js'), ['dist/decide.js', 'dist/rule.js'], 'the edited file sends the next process back to esbuild');
	// Reuse, shown: a saved graph whose files all keep their digests is taken as it is, without esbuild.
	const decide = await digestFile(join(root, 'dist/decide.js'));
	await writeFile(saved!.path, JSON.stringify({schema: 'harness-lab/module-graph@1', key: saved!.key, files: {'dist/decide.js': decide}}));
	t.same(await graphInNewProcess(t, root, cache, 'decide.js'), ['dist/decide.js'], 'the saved graph is what the next process uses');
	// A file named for the key but holding another key's graph is not taken for it.
	await writeFile(saved!.path, JSON.stringify({schema: 'harness-lab/module-graph@1', key: `${saved!.key} `, files: {'dist/decide.js': decide}}));
	t.same(await graphInNewProcess(t, root, cache, 'decide.js'), ['dist/decide.js', 'dist/rule.js'], 'a graph saved under another key is not used');
});

t.test('a saved graph whose files keep their settled stamps is taken without digesting them; a moved stamp sends it back to the digests', async t => {
	const root = await installation({'dist/decide.js': 'export const decide = 1;\n', 'dist/rule.js': 'export const rule = 2;\n'});
	const cache = await tempDir(t, 'hlab-graph-cache-');
	// A stamp younger than two seconds may share its tick with a write to come: none is kept for it.
	await sleep(2_200);
	const decide = await digestFile(join(root, 'dist/decide.js'));
	t.same(await digestsInNewProcess(t, root, cache, 'decide.js'), {'dist/decide.js': decide});
	const [saved] = await savedGraphs(cache);
	t.match(saved, {stamps: /^graph:sha256:/}, 'saved with its files\' stamps');
	t.notOk(existsSync(join(cache, 'harness-lab', 'file-digests.json')), 'and no digest-cache entry per file');
	// A planted digest is answered back: the stamps vouched for the saved digests, no file was read.
	const planted = `sha256:${'0'.repeat(64)}`;
	await writeFile(saved!.path, JSON.stringify({...saved, path: undefined, files: {'dist/decide.js': planted}}));
	t.same(await digestsInNewProcess(t, root, cache, 'decide.js'), {'dist/decide.js': planted}, 'the saved digests stand while the stamps hold');
	// The same bytes written again move the stamp: the file is digested, and the planted digest no longer matches it.
	await writeFile(join(root, 'dist/decide.js'), 'export const decide = 1;\n');
	t.same(await digestsInNewProcess(t, root, cache, 'decide.js'), {'dist/decide.js': decide}, 'a moved stamp is checked by digest');
	t.not((await savedGraphs(cache))[0]!.stamps, saved!.stamps, 'saved again, with the stamps it has now (none while the file is not settled)');
});

t.test('the saved graphs keep the newest 32: a new one pushes out the oldest', async t => {
	const root = await installation({'dist/decide.js': 'export const decide = 1;\n'});
	const cache = await tempDir(t, 'hlab-graph-cache-');
	const dir = join(cache, 'harness-lab', 'module-graphs');
	await mkdir(dir, {recursive: true});
	// 32 graphs saved earlier, a minute apart: old-0 the oldest.
	for (let index = 0; index < 32; index++) {
		const path = join(dir, `old-${index}.json`);
		await writeFile(path, JSON.stringify({schema: 'harness-lab/module-graph@1', key: `old ${index}`, files: {}}));
		const at = new Date(Date.now() - (40 - index) * 60_000);
		await utimes(path, at, at);
	}
	t.same(await graphInNewProcess(t, root, cache, 'decide.js'), ['dist/decide.js']);
	const names = await readdir(dir);
	t.equal(names.length, 32);
	t.notOk(names.includes('old-0.json'), 'the oldest went');
	t.ok(names.includes('old-1.json'), 'the next oldest stays');
	t.same((await savedGraphs(cache)).filter(graph => !graph.key.startsWith('old ')).map(graph => Object.keys(graph.files)), [['dist/decide.js']], 'the new one is kept');
});

/** Every graph saved in the cache folder, with its file. */
async function savedGraphs(cache: string): Promise<Array<{path: string; key: string; files: Record<string, string | null>; stamps?: string | null}>> {
	const dir = join(cache, 'harness-lab', 'module-graphs');
	return Promise.all((await readdir(dir)).map(async name => ({path: join(dir, name), ...JSON.parse(await readFile(join(dir, name), 'utf8')) as {key: string; files: Record<string, string | null>}})));
}
