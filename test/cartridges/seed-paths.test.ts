import {access, mkdir, readdir} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {hlab} from '../hlab.js';
import {tempDir} from '../temp-dir.js';
import {copyCartridge, examplesDir} from './cartridge-copy.js';

checkNoLeaks(t);

const responses = join(examplesDir, 'settings_agent.responses.json');
const settings = '{"name": "inventory-service", "port": 8080, "debug": false}\n';

/** The settings agent's case with its seeded files replaced by `files`. */
const caseWith = (files: Record<string, string>, id = 'change_port', goal = 'In settings.json, set the port to 9090. Keep everything else as it is.') =>
	JSON.stringify({id, task: {goal, files}, expected: {settings: {name: 'inventory-service', port: 9090, debug: false}}, marks: ['regression']});

const refused: Array<{name: string; files: Record<string, string>; reason: RegExp}> = [
	{name: 'a "." key', files: {'settings.json': settings, '.': 'x'}, reason: /task\.files: "\.": an empty or "\." segment/},
	{name: 'a folder key', files: {'settings.json': settings, 'dir/': 'x'}, reason: /task\.files: "dir\/": a trailing slash/},
	{name: 'a key that is the folder of another', files: {'settings.json': settings, 'a': 'x', 'a/b': 'y'}, reason: /task\.files: "a": is a file, and also the folder of "a\/b"/},
	{name: 'a key below a seeded file', files: {'settings.json': settings, 'settings.json/x': 'y'}, reason: /task\.files: "settings\.json": is a file, and also the folder of "settings\.json\/x"/},
	{name: 'a ".." segment', files: {'settings.json': settings, '../x': 'y'}, reason: /task\.files: "\.\.\/x": a "\.\." segment \(it would leave the workspace\)/},
	{name: 'an absolute key', files: {'settings.json': settings, '/tmp/x': 'y'}, reason: /task\.files: "\/tmp\/x": an absolute path/},
	{name: 'an empty segment', files: {'settings.json': settings, 'a//b': 'y'}, reason: /task\.files: "a\/\/b": an empty or "\." segment/},
	{name: 'an empty key', files: {'settings.json': settings, '': 'y'}, reason: /task\.files: "": an empty path/},
	{name: 'a name too long to create', files: {'settings.json': settings, [`${'n'.repeat(256)}.txt`]: 'y'}, reason: /a segment longer than 255 bytes/},
];

for (const {name, files, reason} of refused) {
	t.test(`${name} is refused at load by describe and eval, with its reason, and eval leaves no --out`, async t => {
		const dir = await copyCartridge(t, 'settings_agent', {'evals/cases/change_port.json': caseWith(files)});
		const described = await hlab(['cartridge', 'describe', dir]);
		t.equal(described.record.exit_code, 2, described.stderr);
		t.match(described.stderr, reason);
		const out = join(await tempDir(t, 'hlab-runs-'), 'runs');
		const run = await hlab(['cartridge', 'eval', dir, '--out', out, '--provider', 'scripted', '--responses', responses]);
		t.equal(run.record.exit_code, 2, run.stderr);
		t.match(run.stderr, reason);
		t.notMatch(run.stderr, /EEXIST|EISDIR|ENAMETOOLONG|Invalid key in record/);
		t.equal(await access(out).then(() => true, () => false), false, 'no partial --out');
	});
}

t.test('nested seed paths that are all files load and seed', async t => {
	const dir = await copyCartridge(t, 'settings_agent', {'evals/cases/change_port.json': caseWith({'settings.json': settings, 'conf/a.txt': 'a', 'conf/deep/b.txt': 'b'})});
	const described = await hlab(['cartridge', 'describe', dir]);
	t.equal(described.record.exit_code, 0, described.stderr);
	t.match(described.stdout, /seeds settings\.json, conf\/a\.txt, conf\/deep\/b\.txt/);
});

t.test('cartridge eval that fails before any case ran leaves --out as it found it', async t => {
	// Two cases the provider cannot tell apart (one goal, different turns): it refuses to start, after --out was made.
	const goal = 'In settings.json, set the port to 9090. Keep everything else as it is.';
	const dir = await copyCartridge(t, 'settings_agent', {'evals/cases/twin.json': caseWith({'settings.json': settings}, 'twin', goal)});
	const parent = await tempDir(t, 'hlab-runs-');
	const out = join(parent, 'runs');
	const run = await hlab(['cartridge', 'eval', dir, '--out', out, '--provider', 'scripted', '--responses', responses]);
	t.equal(run.record.exit_code, 2, run.stderr);
	t.match(run.stderr, /same prompt/);
	t.equal(await access(out).then(() => true, () => false), false, 'the --out it made is removed');
	const given = join(parent, 'given');
	await mkdir(given);
	const again = await hlab(['cartridge', 'eval', dir, '--out', given, '--provider', 'scripted', '--responses', responses]);
	t.equal(again.record.exit_code, 2, again.stderr);
	t.same(await readdir(given), [], 'an --out given empty stays, empty');
});
