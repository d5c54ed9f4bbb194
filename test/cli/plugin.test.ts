import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {hlab as hlabCli} from '../hlab.js';
import {sdkDigest, ValidationVerdict} from '../../engine/index.js';
import {installRoot as projectRoot} from '../../files/install-root.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

/** The real `hlab` command line, run from the project root. */
const hlabCommand = (args: string[]) => hlabCli(args, {cwd: projectRoot});


t.test('plugin validate --json: both example candidates are valid', async t => {
	for (const name of ['step-budget', 'repeated-observation']) {
		const result = await hlabCommand(['plugin', 'validate', '--json', `examples/candidates/${name}.ts`]);
		t.equal(result.record.exit_code, 0, result.stderr);
		const verdict = ValidationVerdict.parse(JSON.parse(result.stdout));
		t.same([verdict.valid, verdict.errors], [true, []]);
		t.same(verdict.checks.map(check => [check.name, check.passed]), [['compile', true], ['load', true], ['structure', true], ['types', true]], 'the examples type-check too');
	}
});

t.test('plugin validate: a type error makes the candidate invalid, named as the compiler names it, status 1', async t => {
	const dir = await tempDir(t, 'hlab-plugin-types-');
	const source = await readFile(join(projectRoot, 'examples', 'candidates', 'step-budget.ts'), 'utf8');
	await writeFile(join(dir, 'typo.ts'), `${source}\nconst limit: number = 'three';\nvoid limit;\n`);
	const result = await hlabCommand(['plugin', 'validate', join(dir, 'typo.ts')]);
	t.equal(result.record.exit_code, 1, result.stdout);
	t.match(result.stdout, /^invalid: \S+typo\.ts\n {2}types: typo\.ts\(\d+,7\): error TS2322: Type 'string' is not assignable to type 'number'\.\n$/);
});

t.test('plugin validate --json: a disallowed import is named, and the status is 1', async t => {
	const dir = await tempDir(t, 'hlab-plugin-cli-');
	await writeFile(join(dir, 'candidate.ts'), 'import chalk from \'chalk\';\nexport default {initialize: () => ({protocol_version: 1, capabilities: []}), invokeCapability: () => ({output: chalk})};\n');
	const result = await hlabCommand(['plugin', 'validate', '--json', join(dir, 'candidate.ts')]);
	t.equal(result.record.exit_code, 1);
	const verdict = ValidationVerdict.parse(JSON.parse(result.stdout));
	t.equal(verdict.valid, false);
	t.match(verdict.errors[0], /import 'chalk' is refused/);
});

t.test('plugin describe writes the exact SDK declarations and reports capabilities and tools', async t => {
	const dir = await tempDir(t, 'hlab-plugin-cli-');
	const types = join(dir, 'sdk-types');
	const result = await hlabCommand(['plugin', 'describe', '--types-dir', types, '--json']);
	t.equal(result.record.exit_code, 0, result.stderr);
	const description = JSON.parse(result.stdout);
	t.equal(description.schema, 'harness-lab/plugin-description@1');
	t.equal(description.sdk.digest, sdkDigest());
	t.same(description.sdk.unresolved, [], 'every declaration the SDK imports is exported with it');
	const written = (await readdir(types, {recursive: true})).filter(name => name.endsWith('.d.ts')).sort();
	t.same(written, description.sdk.files.map((file: {name: string}) => file.name).sort());
	t.ok(written.includes('sdk/plugin.d.ts') && written.includes('sdk/index.d.ts'));
	t.equal(description.sdk.entry, 'sdk/index.d.ts');
	t.equal(await readFile(join(types, 'sdk/plugin.d.ts'), 'utf8'), await readFile(join(projectRoot, 'dist/sdk/plugin.d.ts'), 'utf8'), 'byte for byte');
	t.same(description.capabilities.map((entry: {id: string; kind: string; version: number}) => [entry.id, entry.kind, entry.version]), [['agent.step.policy', 'decision', 1], ['agent.request.transform', 'transform', 1]]);
	t.same(description.tools.map((tool: {function: {name: string}}) => tool.function.name), ['read_file', 'write_file', 'list_files', 'run_command', 'done']);
});

t.test('plugin describe refuses an existing directory', async t => {
	const dir = await tempDir(t, 'hlab-plugin-cli-');
	await mkdir(join(dir, 'exists'));
	const result = await hlabCommand(['plugin', 'describe', '--types-dir', join(dir, 'exists')]);
	t.equal(result.record.exit_code, 2);
	t.match(result.stderr, /already exists/);
});
