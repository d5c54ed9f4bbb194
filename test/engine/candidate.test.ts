import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {
	CandidateSnapshot, compileCandidate, EngineError, loadCandidate, sdkDigest, validateCandidate,
} from '../../engine/index.js';
import {sha256} from '../../files/sha256.js';
import {runScripted, scriptedServer, tempDir} from './engine-run.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

async function candidateFile(t: Test, name: string, source: string): Promise<string> {
	const file = join(await tempDir(t, 'hlab-candidate-'), name);
	await writeFile(file, source);
	return file;
}

async function initError(t: Test, promise: Promise<unknown>, pattern: RegExp): Promise<void> {
	try {
		await promise;
		t.fail('expected an init failure');
	} catch (error) {
		t.ok(error instanceof EngineError && error.reason === 'init', `an init failure: ${(error as Error).message}`);
		t.match((error as Error).message, pattern);
	}
}

const policy = (body: string): string => `
import type {RuntimePlugin} from 'harness-lab/sdk';
${body}
export default {
	initialize: () => ({protocol_version: 1, capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 1}]}),
	invokeCapability: () => ({output: {stop: true, reason: 'demo', content: String(answer())}}),
} satisfies RuntimePlugin;
`;

t.test('a snapshot holds the exact source, the ESM bundle and their digests', async t => {
	const file = await candidateFile(t, 'my-policy.ts', policy('const answer = (): number => 42;'));
	const snapshot = await compileCandidate(file);
	t.ok(CandidateSnapshot.safeParse(snapshot).success);
	t.equal(snapshot.source_path, file);
	t.equal(snapshot.source, await readFile(file, 'utf8'));
	t.equal(snapshot.source_digest, sha256(snapshot.source));
	t.equal(snapshot.code_digest, sha256(snapshot.code));
	t.equal(snapshot.sdk_digest, sdkDigest());
	t.notMatch(snapshot.code, /: number/, 'the code is compiled JavaScript');
	t.match(snapshot.code, /export\s*{[^}]*default/, 'an ES module');
	const plugin = await loadCandidate(snapshot);
	t.equal(plugin.id, 'my-policy', 'the id defaults to the file\'s base name');
	t.same(plugin.origin, {kind: 'candidate', source_path: file, source_digest: snapshot.source_digest, code_digest: snapshot.code_digest});
	t.same(plugin.capabilities, [{id: 'agent.step.policy', kind: 'decision', version: 1, priority: 0, on_error: 'fail'}]);
});

t.test('the snapshot is what runs, not the file as it is now', async t => {
	const file = await candidateFile(t, 'changing.ts', policy('const answer = () => \'first\';'));
	const snapshot = await compileCandidate(file);
	await writeFile(file, policy('const answer = () => \'second\';'));
	const plugin = await loadCandidate(snapshot);
	const output = await plugin.invoke('agent.step.policy', {}, new AbortController().signal);
	t.same(output, {stop: true, reason: 'demo', content: 'first'});
	await initError(t, loadCandidate({...snapshot, code: snapshot.code.replace('first', 'third')}), /code digest/);
});

t.test('imports: Node builtins and the SDK are allowed, anything else is refused by name', async t => {
	const builtins = await candidateFile(t, 'builtins.ts', policy(`
import {createHash} from 'node:crypto';
import path from 'path';
const answer = () => createHash('sha256').update(path.basename('/a/b.txt')).digest('hex').slice(0, 8);`));
	const plugin = await loadCandidate(await compileCandidate(builtins));
	t.same(await plugin.invoke('agent.step.policy', {}, new AbortController().signal), {stop: true, reason: 'demo', content: sha256('b.txt').slice(7, 15)});

	const sdkValue = await candidateFile(t, 'sdk-value.ts', `
import {definePlugin, capabilityIds, pluginProtocolVersion} from 'harness-lab/sdk';
export default definePlugin({
	initialize: () => ({protocol_version: pluginProtocolVersion, id: 'sdk-value', capabilities: [{id: capabilityIds.stepPolicy, kind: 'decision', version: 1}]}),
	invokeCapability: () => ({output: {stop: false}}),
});`);
	const fromSdk = await loadCandidate(await compileCandidate(sdkValue));
	t.equal(fromSdk.id, 'sdk-value', 'a value import of the SDK resolves to the project\'s SDK');

	const npm = await candidateFile(t, 'npm.ts', policy('import leftPad from \'left-pad\';\nconst answer = () => leftPad(\'x\', 3);'));
	await initError(t, compileCandidate(npm), /import 'left-pad' is refused/);
	const installed = await candidateFile(t, 'installed.ts', policy('import {z} from \'zod\';\nconst answer = () => z.string().parse(\'x\');'));
	await initError(t, compileCandidate(installed), /import 'zod' is refused/);
	const relative = await candidateFile(t, 'relative.ts', policy('import {helper} from \'./helper.js\';\nconst answer = () => helper();'));
	await initError(t, compileCandidate(relative), /import '\.\/helper\.js' is refused/);
	const verdict = await validateCandidate(npm);
	t.equal(verdict.valid, false);
	t.match(verdict.errors.join('\n'), /compile: .*left-pad/);
});

t.test('the SDK is imported as hlab/sdk, and the old name harness-lab/sdk is an alias of it', async t => {
	const source = (specifier: string): string => `
import {definePlugin, capabilityIds, pluginProtocolVersion} from '${specifier}';
export default definePlugin({
	initialize: () => ({protocol_version: pluginProtocolVersion, capabilities: [{id: capabilityIds.stepPolicy, kind: 'decision', version: 1}]}),
	invokeCapability: () => ({output: {stop: false}}),
});`;
	for (const specifier of ['hlab/sdk', 'harness-lab/sdk']) {
		const verdict = await validateCandidate(await candidateFile(t, 'named.ts', source(specifier)));
		t.equal(verdict.valid, true, `a candidate importing ${specifier} validates`, {errors: verdict.errors});
	}
	const other = await validateCandidate(await candidateFile(t, 'other.ts', source('hlab/internal')));
	t.match(other.errors.join('\n'), /import 'hlab\/internal' is refused: .*hlab\/sdk/, 'only the SDK entry is the SDK');
});

t.test('validation reports TypeScript type errors (this checkout has the compiler and Node\'s types)', async t => {
	const wrong = await validateCandidate(await candidateFile(t, 'wrong-types.ts', policy("const answer = (): number => 'forty-two';")));
	t.equal(wrong.valid, false, 'a type error makes the candidate invalid');
	t.same(wrong.checks.map(check => [check.name, check.passed]), [['compile', true], ['load', true], ['structure', true], ['types', false]], 'it compiles and loads: only the types are wrong');
	t.match(wrong.errors.join('\n'), /^types: wrong-types\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/m);
	const misused = await validateCandidate(await candidateFile(t, 'wrong-sdk-use.ts', `
import {definePlugin} from 'hlab/sdk';
export default definePlugin({initialize: () => ({protocol_version: 1, capabilities: [{id: 'agent.step.policy', kind: 'decision', version: 'one'}]}), invokeCapability: () => ({output: {}})});`));
	t.equal(misused.valid, false, 'the SDK\'s own types are checked');
	t.match(misused.errors.join('\n'), /types: wrong-sdk-use\.ts\(\d+,\d+\): error TS\d+/);
	const right = await validateCandidate(await candidateFile(t, 'right-types.ts', policy('const answer = (): number => 42;')));
	t.same(right.checks.map(check => [check.name, check.passed]), [['compile', true], ['load', true], ['structure', true], ['types', true]]);
});

t.test('activation checks initialize, the declared capabilities and readiness', async t => {
	const cases: [string, string, RegExp][] = [
		['wrong-protocol', `export default {initialize: () => ({protocol_version: 3, capabilities: []}), invokeCapability: () => ({output: null})};`, /protocol_version/],
		['unknown-capability', `export default {initialize: () => ({protocol_version: 1, capabilities: [{id: 'agent.pre_step', kind: 'decision', version: 1}]}), invokeCapability: () => ({output: null})};`, /capabilities\.0\.id/],
		['wrong-kind', `export default {initialize: () => ({protocol_version: 1, capabilities: [{id: 'agent.step.policy', kind: 'transform', version: 1}]}), invokeCapability: () => ({output: null})};`, /is of kind decision/],
		['not-ready', `export default {initialize: () => ({protocol_version: 1, capabilities: []}), invokeCapability: () => ({output: null}), ready: async () => false};`, /not ready/],
		['throws', `export default {initialize: () => { throw new Error('no config'); }, invokeCapability: () => ({output: null})};`, /initialize\(\) threw: no config/],
		['no-export', `export const plugin = 1;`, /default export must be an object/],
	];
	for (const [name, source, pattern] of cases) {
		const file = await candidateFile(t, `${name}.ts`, source);
		await initError(t, loadCandidate(await compileCandidate(file)), pattern);
	}
	const structure = await validateCandidate(await candidateFile(t, 'half.ts', 'export default {initialize() {}};'));
	t.same(structure.checks.map(check => [check.name, check.passed]), [['compile', true], ['load', true], ['structure', false], ['types', true]]);
	t.match(structure.errors.join('\n'), /no invokeCapability\(\) function/);
	const broken = await validateCandidate(await candidateFile(t, 'broken.ts', 'export default {'));
	t.same(broken.checks.map(check => [check.name, check.passed]), [['compile', false]]);
	const throwsOnLoad = await validateCandidate(await candidateFile(t, 'load.ts', 'throw new Error(\'top-level failure\');\nexport default {};'));
	t.match(throwsOnLoad.errors.join('\n'), /load: .*top-level failure/);
});

t.test('a plugin the composition excludes fails the loaded-module check, with no fallback', async t => {
	const server = await scriptedServer(t, [{id: 'c', prompt: 'composition test', reference: function* () {
		yield {tool: 'list_files', args: {}};
		return 'ok';
	}}]);
	const file = await candidateFile(t, 'selected.ts', policy('const answer = () => \'stopped\';'));
	const plugin = await loadCandidate(await compileCandidate(file));
	const excluded = await runScripted(t, server, {id: 'c', prompt: 'composition test'}, {plugins: [plugin], composition: {modules: ['core', 'other-*']}});
	t.same([excluded.outcome.status, excluded.outcome.reason], ['failed', 'init']);
	t.match(excluded.outcome.message, /selected is not selected by the active composition/);
	t.notOk(excluded.journal.some(record => record.type === 'request'), 'no model request was made');
	const included = await runScripted(t, server, {id: 'c', prompt: 'composition test'}, {plugins: [plugin], composition: {modules: ['sel*']}});
	t.same([included.outcome.status, included.outcome.final_text], ['policy_stop', 'stopped']);
});
