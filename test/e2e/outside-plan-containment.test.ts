import {existsSync} from 'node:fs';
import {readFile, readdir} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {examplesDir} from '../cartridges/cartridge-copy.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {scratch} from './experiment-fixture.js';

checkNoLeaks(t);

// `hlab agent` and `hlab cartridge eval` run candidate and cartridge code in-process, outside any plan: no sandbox.
const cartridge = join(examplesDir, 'report_agent.cartridge');
const responses = join(examplesDir, 'report_agent.responses.json');
/** Words by which a record would claim its code was contained; `sandbox: null` on a process record says it was not. */
const claim = /"(integrity|contained|containment_claim|trusted_code|sandboxed)"|bubblewrap|bwrap/i;

/** The text without the install root, whose name may hold any word (this checkout's does: sandboxcov). */
const words = (text: string): string => text.replaceAll(installRoot, '<install>');

/** Every JSON file under `dir`, as text. */
async function jsonFiles(dir: string): Promise<Array<{path: string; text: string}>> {
	const files: Array<{path: string; text: string}> = [];
	for (const entry of await readdir(dir, {recursive: true, withFileTypes: true})) {
		if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
		const path = join(entry.parentPath, entry.name);
		files.push({path, text: words(await readFile(path, 'utf8'))});
	}
	return files;
}

/** Each `"sandbox"` value in a record: a process record's own word for how its process ran. */
function sandboxValues(text: string): unknown[] {
	const values: unknown[] = [];
	JSON.parse(text, (key, value: unknown) => {
		if (key === 'sandbox') values.push(value);
		return value;
	});
	return values;
}

t.test('hlab agent and hlab cartridge eval refuse --sandbox in one line (exit 2) and run nothing: it is never silently ignored', async t => {
	const dir = await scratch(t);
	const runs = [
		{name: 'agent', args: ['agent', '--task', 'json_config_migration', '--workspace', join(dir, 'ws'), '--sandbox'], made: join(dir, 'ws')},
		{name: 'cartridge eval', args: ['cartridge', 'eval', cartridge, '--responses', responses, '--out', join(dir, 'out'), '--sandbox'], made: join(dir, 'out')},
	];
	for (const run of runs) {
		const ran = await hlab(run.args);
		t.equal(ran.record.exit_code, 2, `${run.name}: ${ran.stderr}`);
		t.match(ran.stderr, /^hlab: unknown option '--sandbox'/, `${run.name} names the flag`);
		t.equal(ran.stderr.trim().split('\n').length, 1, `${run.name}: one line`);
		t.equal(ran.stdout, '', `${run.name}: nothing ran`);
		t.notOk(existsSync(run.made), `${run.name}: nothing was written`);
	}
});

t.test('hlab agent says nothing of containment: its output claims none, its process records say sandbox null', async t => {
	const dir = await scratch(t);
	const state = join(dir, 'state');
	const ran = await hlab(['agent', '--task', 'json_config_migration', '--workspace', join(dir, 'ws'), '--state-dir', state, '--json']);
	t.equal(ran.record.exit_code, 0, ran.stderr);
	t.notMatch(words(ran.stdout), claim, 'the agent-run JSON claims no containment');
	const text = await hlab(['agent', '--task', 'json_config_migration', '--workspace', join(dir, 'ws2')]);
	t.notMatch(words(text.stdout), /sandbox|contain|integrity|bubblewrap/i, 'nor does its summary');
	const records = await jsonFiles(state);
	t.ok(records.length > 0, 'the state folder has records');
	for (const record of records) {
		t.notMatch(record.text, claim, `${record.path} claims no containment`);
		t.ok(sandboxValues(record.text).every(value => value === null), `${record.path}: every process ran unsandboxed, and says so`);
	}
});

t.test('hlab cartridge eval says nothing of containment: its run and case records claim none, their processes say sandbox null', async t => {
	const dir = await scratch(t);
	const out = join(dir, 'out');
	const ran = await hlab(['cartridge', 'eval', cartridge, '--responses', responses, '--out', out]);
	t.equal(ran.record.exit_code, 0, ran.stderr);
	t.notMatch(words(ran.stdout), /sandbox|contain|integrity|bubblewrap/i, 'its summary claims no containment');
	const records = await jsonFiles(out);
	t.ok(records.some(record => record.path.endsWith('run.json')), 'run.json is among the records');
	let processes = 0;
	for (const record of records) {
		t.notMatch(record.text, claim, `${record.path} claims no containment`);
		const values = sandboxValues(record.text);
		processes += values.length;
		t.ok(values.every(value => value === null), `${record.path}: every process ran unsandboxed, and says so`);
	}
	t.ok(processes > 0, 'the collectors\' and graders\' process records are there to say it');
});
