import {readdir, readFile} from 'node:fs/promises';
import {join, relative} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {EngineFailureReason} from '../../engine/outcome.js';
import {notEngineReasons, TaskFailureReason} from '../../supervisor/attempt/task-core/task-reasons.js';

/** Where a source names a failure reason: an EngineError's class, a `reason` field or test, and a z.enum's members. */
const reasonSites = [
	/EngineError\(\s*(['"`])(\w+)\1/g,
	/reason\s*(?::|===|!==|\?\?|=)\s*(['"`])(\w+)\1/g,
];

function reasonLiterals(source: string): string[] {
	const found = reasonSites.flatMap(site => [...source.matchAll(site)].map(match => match[2]!));
	for (const members of source.matchAll(/z\.enum\(\[([^\]]*)\]/g)) found.push(...[...members[1]!.matchAll(/(['"`])(\w+)\1/g)].map(match => match[2]!));
	return found;
}

/** Each `file: reason` where a source names a reason the engine may not produce. */
function supervisorReasonsIn(files: Array<{path: string; source: string}>): string[] {
	return files.flatMap(file => reasonLiterals(file.source).filter(reason => notEngineReasons.includes(reason as TaskFailureReason)).map(reason => `${file.path}: ${reason}`));
}

async function engineSources(): Promise<Array<{path: string; source: string}>> {
	const root = join(installRoot, 'engine');
	const entries = await readdir(root, {recursive: true, withFileTypes: true});
	const paths = entries.filter(entry => entry.isFile() && entry.name.endsWith('.ts')).map(entry => join(entry.parentPath, entry.name));
	return Promise.all(paths.map(async path => ({path: relative(installRoot, path), source: await readFile(path, 'utf8')})));
}

t.test('the engine names no failure reason of the supervisor', async t => {
	const sources = await engineSources();
	t.ok(sources.length > 20, `the engine's sources were read (${sources.length})`);
	t.same(supervisorReasonsIn(sources), []);
});

t.test('the check finds a supervisor reason in an engine error, a reason field and an enum', async t => {
	const found = supervisorReasonsIn([
		{path: 'engine/a.ts', source: "throw new EngineError('grader', 'the grader failed');"},
		{path: 'engine/b.ts', source: "return {reason: 'admission', message: 'refused'};"},
		{path: 'engine/c.ts', source: "export const Reason = z.enum([\n\t'init', 'budget',\n]);"},
		{path: 'engine/d.ts', source: "headers.delete('host'); throw new EngineError('tool', 'export failed');"},
	]);
	t.same(found, ['engine/a.ts: grader', 'engine/b.ts: admission', 'engine/c.ts: budget']);
});

t.test('the task reasons are the engine\'s and the supervisor\'s, the serialized names unchanged', async t => {
	t.ok(notEngineReasons.length > 0, 'the supervisor has reasons of its own');
	t.same(notEngineReasons.filter(reason => (EngineFailureReason.options as readonly string[]).includes(reason)), [], 'none of them is the engine\'s');
	const held = [
		'init', 'auth', 'missing_tool', 'timeout', 'unfinished', 'crash', 'output_limit', 'admission', 'grader', 'provider', 'tool',
		'aborted', 'export', 'controller', 'host', 'budget', 'worker_lost', 'evidence_limit',
	];
	t.same(held.filter(reason => !(TaskFailureReason.options as readonly string[]).includes(reason)), [], 'every reason a report or ledger already holds still parses');
	// Added since: `evidence` (a ledger record the seal does not vouch for), `workspace_limit` and `runtime_space` (bounded workspaces).
	t.same([...TaskFailureReason.options].filter(reason => !held.includes(reason)), ['evidence', 'workspace_limit', 'runtime_space'], 'and only the reasons added on purpose are new');
});
