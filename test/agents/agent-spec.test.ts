import {readdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t, {type Test} from 'tap';
import {checkCommittedSchemas} from '../committed-schemas.js';
import {agentIdentity, checkSpec, readAgentSpec, type InstallManifest} from '../../agents/index.js';
import {renderAgentSchemas} from '../../agents/json-schemas.js';
import {agentSchemaDirectory} from '../../agents/write-json-schemas.js';
import {installRoot} from '../../files/install-root.js';
import {tempDir} from '../temp-dir.js';

const base = {schema: 'harness-lab/agent@1', adapter: 'qwen-code', package: {name: '@qwen-code/qwen-code', version: '0.24.4'}, model: 'qwen3-coder-plus'};
const withVersion = (version: unknown) => ({...base, package: {name: base.package.name, version}});

/** The refusal's one line, or a failure when the spec was accepted. */
function refusal(t: Test, json: unknown): string {
	const checked = checkSpec(json);
	if (typeof checked !== 'string') {
		t.fail('the spec was accepted', {json});
		return '';
	}
	t.notMatch(checked, /\n/, 'one line');
	return checked;
}

t.test('a version must pin one release: ranges, tags, partial versions and a missing one are refused by field', async t => {
	for (const loose of ['^0.24.4', '~0.24.4', '>=0.24.4', '0.24.x', '0.24', '*', '0.24.4 || 0.25.0', '=0.24.4', 'v0.24.4', '00.24.4', '']) {
		t.match(refusal(t, withVersion(loose)), /^package\.version: .*not an exact version/, `${JSON.stringify(loose)} is refused`);
	}
	for (const tag of ['latest', 'next', 'beta']) t.match(refusal(t, withVersion(tag)), /^package\.version: "\w+" is a tag/, `${tag} is refused as a tag`);
	t.match(refusal(t, {...base, package: {name: base.package.name}}), /^package\.version: missing/);
	t.match(refusal(t, withVersion(24)), /^package\.version: not a string/);
	for (const exact of ['0.24.4', '1.0.0-rc.1', '2.3.4+build.5']) t.type(checkSpec(withVersion(exact)), 'object', `${exact} is exact`);
});

t.test('an unknown or missing adapter is named, with the ones there are', async t => {
	t.equal(refusal(t, {...base, adapter: 'aider'}), 'adapter: "aider": must be one of qwen-code, opencode, pi, codex, command');
	t.match(refusal(t, {...base, adapter: undefined}), /^adapter: missing/);
});

t.test('a package name is a registry name, never a path, URL, git remote or alias that npm would also install', async t => {
	for (const name of ['file:/tmp/evil', '../evil', '/tmp/evil', 'git+https://example.invalid/x.git', 'evil@npm:semver', 'Semver', '-semver', '.semver', '@scope/a/b', 'a b']) {
		t.match(refusal(t, {...base, package: {name, version: '1.0.0'}}), /^package\.name: .* is not an npm registry package name/, `${name} is refused`);
	}
	t.match(refusal(t, {...base, package: {version: '1.0.0'}}), /^package\.name: missing/);
});

t.test('what the adapter keeps for itself, unknown keys and loose paths are refused', async t => {
	t.equal(refusal(t, {...base, flags: ['--model=other']}), 'flags: --model is set by the qwen-code adapter itself');
	t.match(refusal(t, {...base, flags: ['-m', 'other']}), /^flags\.0: "-m" is not a long option/, 'a short option could hide a reserved one');
	t.match(refusal(t, {...base, extra: true}), /Unrecognized key: "extra"/);
	t.match(refusal(t, {...base, env: ['OK', 'NOT-A-NAME']}), /^env\.1: "NOT-A-NAME" is not an environment variable name/);
	t.match(refusal(t, {...base, config: {system_prompt_file: '../secret.md'}}), /^config\.system_prompt_file: a path inside the spec's folder/);
	t.match(refusal(t, {...base, model: ''}), /^model: missing/);
	const command = {schema: 'harness-lab/agent@1', adapter: 'command', task_input: 'stdin'};
	t.match(refusal(t, {...command, executable: '../../bin/sh'}), /^executable: without a package, a path inside the spec's folder/);
	t.match(refusal(t, {...command, executable: 'bin/x', package: {name: 'semver', version: '7.7.2'}}), /^executable: with a package, one of its bin names/);
	t.match(refusal(t, {...command, executable: 'x', task_input: 'file'}), /^task_input: /);
});

t.test('every example spec validates, and a spec names the files it needs beside it', async t => {
	const dir = join(installRoot, 'examples', 'agents');
	const specs = (await readdir(dir)).filter(name => name.endsWith('.json')).sort();
	t.strictSame(specs, ['codex.json', 'command.json', 'opencode.json', 'pi.json', 'qwen-code.json']);
	for (const name of specs) {
		const read = await readAgentSpec(join(dir, name));
		t.ok(read.ok, `${name} validates`, {read});
		if (read.ok) t.equal(read.loaded.spec.adapter, name.replace(/\.json$/, ''), `${name} is named for its agent`);
	}
	const scratch = await tempDir(t);
	await writeFile(join(scratch, 'agent.yaml'), 'schema: harness-lab/agent@1\nadapter: pi\npackage: {name: "@mariozechner/pi-coding-agent", version: 0.73.1}\nmodel: m\nconfig: {system_prompt_file: prompt.md}\n');
	const noPrompt = await readAgentSpec(join(scratch, 'agent.yaml'));
	t.match(noPrompt, {ok: false, reason: 'invalid', message: /agent\.yaml: config\.system_prompt_file: prompt\.md is not a file beside the spec$/}, 'YAML is read, and a missing prompt refused');
	await writeFile(join(scratch, 'prompt.md'), 'be brief\n');
	t.match(await readAgentSpec(join(scratch, 'agent.yaml')), {ok: true, loaded: {spec: {adapter: 'pi', flags: [], env: []}}});
	await writeFile(join(scratch, 'run.json'), JSON.stringify({schema: 'harness-lab/agent@1', adapter: 'command', executable: 'run.sh', task_input: 'argument'}));
	t.match(await readAgentSpec(join(scratch, 'run.json')), {ok: false, message: /executable: run\.sh is not an executable file beside the spec$/});
	t.match(await readAgentSpec(join(scratch, 'none.json')), {ok: false, reason: 'unreadable', message: /^cannot read .*none\.json: ENOENT$/});
	await writeFile(join(scratch, 'broken.json'), '{');
	t.match(await readAgentSpec(join(scratch, 'broken.json')), {ok: false, reason: 'unreadable', message: /broken\.json is not valid JSON/});
});

t.test('the committed JSON Schema files are exactly what the zod schemas generate', async t => {
	const expected = renderAgentSchemas();
	await checkCommittedSchemas(t, agentSchemaDirectory, expected, 'dist/agents/write-json-schemas.js');
	const spec = JSON.parse(expected.get('agent-spec.json')!);
	t.same(spec.oneOf.map((branch: {properties: {adapter: {const: string}}}) => branch.properties.adapter.const), ['qwen-code', 'opencode', 'pi', 'codex', 'command']);
	t.match(spec.oneOf[0].properties.package.properties.version.pattern, /^\^\(0\|/, 'the exact-version rule is in the schema too');
});

t.test('the identity names the adapter, the installed digest and the config by digest', async t => {
	const spec = checkSpec({...base, config: {budget: {max_turns: 10}}});
	if (typeof spec === 'string') return t.fail(spec);
	const manifest = {package: base.package, digest: `sha256:${'a'.repeat(64)}`} as InstallManifest;
	const identity = agentIdentity(spec, manifest);
	t.match(identity, {schema: 'harness-lab/agent-identity@1', adapter: 'qwen-code', adapter_version: 1, package: base.package, installed_digest: manifest.digest, model: 'qwen3-coder-plus'});
	const other = checkSpec({...base, config: {budget: {max_turns: 11}}});
	if (typeof other === 'string') return t.fail(other);
	t.not(agentIdentity(other, manifest).config_digest, identity.config_digest, 'another config, another digest');
	const reordered = checkSpec({...base, config: {tools: {allow: ['a']}, budget: {max_turns: 10}}});
	const sameKeys = checkSpec({...base, config: {budget: {max_turns: 10}, tools: {allow: ['a']}}});
	if (typeof reordered === 'string' || typeof sameKeys === 'string') return t.fail('refused');
	t.equal(agentIdentity(reordered, manifest).config_digest, agentIdentity(sameKeys, manifest).config_digest, 'canonical: key order does not matter');
	t.throws(() => agentIdentity(spec, {...manifest, package: {name: base.package.name, version: '0.24.5'}}), /needs its own install manifest/, 'another version\'s manifest is not this agent\'s');
	t.throws(() => agentIdentity(spec, null), /needs its own install manifest/);
});
