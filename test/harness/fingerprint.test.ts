import t from 'tap';
import {builtinAgent, fingerprintHarness, HarnessFingerprint, type Harness} from '../../harness/index.js';

/** The same value with every object's keys in reverse order. */
function reversedKeys<T>(value: T): T {
	if (Array.isArray(value)) return value.map(reversedKeys) as T;
	if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([key, inner]) => [key, reversedKeys(inner)])) as T;
	return value;
}

/** Every path to a string, number or boolean leaf of a value. */
function leafPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
	if (Array.isArray(value)) return value.flatMap((inner, index) => leafPaths(inner, [...path, index]));
	if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => leafPaths(inner, [...path, key]));
	return [path];
}

/** A copy with the leaf at `path` changed, still a valid harness where the change allows it. */
function changedAt(harness: Harness, path: (string | number)[]): Harness {
	const copy = structuredClone(harness) as unknown as Record<string | number, unknown>;
	let parent = copy;
	for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
	const key = path.at(-1)!;
	const leaf = parent[key];
	parent[key] = typeof leaf === 'number' ? leaf + 1 : typeof leaf === 'boolean' ? !leaf : `${String(leaf)}x`;
	return copy as unknown as Harness;
}

t.test('the fingerprint names its versions and is a sha256', async t => {
	const fingerprint = fingerprintHarness(builtinAgent);
	t.ok(HarnessFingerprint.safeParse(fingerprint).success);
	t.equal(fingerprint.schema, 'harness-lab/harness@1');
	t.equal(fingerprint.digest_scheme, 'harness-lab/sha256-canonical-json@1');
});

t.test('the fingerprint does not depend on key order', async t => {
	const reordered = reversedKeys(builtinAgent);
	t.not(JSON.stringify(reordered), JSON.stringify(builtinAgent), 'the keys really are in another order');
	t.same(fingerprintHarness(reordered), fingerprintHarness(builtinAgent));
	t.same(fingerprintHarness(structuredClone(builtinAgent)), fingerprintHarness(builtinAgent));
});

t.test('a harness stored as JSON text reads back to the same fingerprint', async t => {
	const stored = JSON.stringify(builtinAgent, null, '\t');
	t.same(fingerprintHarness(JSON.parse(stored) as Harness), fingerprintHarness(builtinAgent), 'the argument schemas are plain data');
});

t.test('the fingerprint changes when any field changes', async t => {
	const base = fingerprintHarness(builtinAgent).digest;
	const seen = new Map<string, string>([[base, 'the built-in agent']]);
	// Leaves whose change makes the value no Harness at all (a format tag, a literal, a name a template or the
	// enabled set must match) are covered by the refusal below and by the schema tests.
	const paths = leafPaths(builtinAgent).filter(path => !['schema', 'context', 'task_template', 'enabled_tools'].includes(String(path[0])) && path.at(-1) !== 'name' && path.at(-1) !== 'type' && !(path[0] === 'tools' && path[2] === 'implementation'));
	t.ok(paths.length > 20, `${paths.length} fields are changed one at a time`);
	for (const path of paths) {
		const digest = fingerprintHarness(changedAt(builtinAgent, path)).digest;
		t.notOk(seen.has(digest), `${path.join('.')} changes the fingerprint`);
		seen.set(digest, path.join('.'));
	}
	const changes: [string, (harness: Harness) => void][] = [
		['the template', harness => (harness.task_template = {text: 'Task: {{prompt}}', variables: ['prompt']})],
		['a declared variable', harness => harness.task_template.variables.push('task_id')],
		['the enabled set', harness => harness.enabled_tools.pop()],
		['the order of the enabled set', harness => harness.enabled_tools.reverse()],
		['a tool\'s implementation', harness => (harness.tools[0]!.implementation = 'builtin:other')],
		['a tool\'s name', harness => {
			harness.tools[0]!.name = 'read';
			harness.enabled_tools[0] = 'read';
		}],
		['the harness\'s name', harness => (harness.name = 'another')],
		['a property of a tool\'s parameters', harness => ((harness.tools[2]!.parameters.properties as Record<string, unknown>).depth = {type: 'number'})],
	];
	for (const [what, change] of changes) {
		const copy = structuredClone(builtinAgent);
		change(copy);
		const digest = fingerprintHarness(copy).digest;
		t.notOk(seen.has(digest), `${what} changes the fingerprint`);
		seen.set(digest, what);
	}
});

t.test('a value that is not a Harness has no fingerprint', async t => {
	t.throws(() => fingerprintHarness({...builtinAgent, enabled_tools: ['nothing']}), /nothing is enabled but no tool/);
	t.throws(() => fingerprintHarness({...builtinAgent, schema: 'harness-lab/harness@0'} as never));
});
