import {copyFile, readFile, rm, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {savedVersionsPath, versionKey} from '../../../supervisor/plan/saved-tool-versions.js';
import {toolVersions} from '../../../supervisor/plan/tool-versions.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

// The saved versions go to a cache folder of this test's own; the tools come from a folder first on PATH.
process.env.XDG_CACHE_HOME = await tempDir(t, 'hlab-tool-cache-');
const bin = await tempDir(t, 'hlab-tool-bin-');
process.env.PATH = `${bin}:${process.env.PATH ?? ''}`;

// A native binary (GNU env prints its version whatever its file is called), a script, and a version manager's shim: one binary under another name.
const nativeVersion = /^env \(GNU coreutils\) \S+$/;
await copyFile('/usr/bin/env', join(bin, 'env'));
await writeFile(join(bin, 'scripted-tool'), '#!/bin/sh\ncat "$(dirname "$0")/answer"\n', {mode: 0o755});
await writeFile(join(bin, 'answer'), 'scripted 1\n');
await copyFile('/usr/bin/env', join(bin, 'manager'));
await symlink(join(bin, 'manager'), join(bin, 'shimmed'));
// A stamp younger than two seconds may still share its tick with a write to come: nothing is saved under it.
await sleep(2_200);

const saved = async (): Promise<Record<string, string>> => JSON.parse(await readFile(savedVersionsPath(), 'utf8')).entries;

t.test('a native binary answers once; its answer is then read while its file keeps its stamp', async t => {
	const first = await toolVersions(['env']);
	t.match(first.env, nativeVersion, 'asked');
	const entries = await saved();
	const key = versionKey('env');
	t.not(key, null);
	t.equal(entries[key!], first.env, 'saved under the binary\'s key');
	// A planted answer is read back: the saved one, not a new process, answers.
	await writeFile(savedVersionsPath(), JSON.stringify({schema: 'harness-lab/tool-versions@1', entries: {...entries, [key!]: 'planted'}}));
	t.equal((await toolVersions(['env'])).env, 'planted', 'the saved answer is used');
	t.equal((await toolVersions(['env', 'node'])).node, process.version, 'node is the running runtime');
});

t.test('a binary replaced since is asked again, never read under its old stamp', async t => {
	await rm(join(bin, 'env'));
	await copyFile('/usr/bin/env', join(bin, 'env'));
	t.match((await toolVersions(['env'])).env, nativeVersion);
});

t.test('a script is asked every time: its answer depends on more than its own bytes', async t => {
	t.equal((await toolVersions(['scripted-tool']))['scripted-tool'], 'scripted 1');
	await writeFile(join(bin, 'answer'), 'scripted 2\n');
	t.equal((await toolVersions(['scripted-tool']))['scripted-tool'], 'scripted 2', 'the script\'s new answer');
	t.equal(versionKey('scripted-tool'), null);
});

t.test('a binary reached under another name (a version manager\'s shim) is asked every time', async t => {
	t.match((await toolVersions(['shimmed'])).shimmed, nativeVersion);
	t.equal(versionKey('shimmed'), null, 'no key: the binary picks what it runs by more than its bytes');
	t.notOk(Object.keys(await saved()).some(key => key.startsWith('["shimmed"')), 'nothing saved for it');
});

t.test('a PATH that looks in the working directory before the tool\'s folder keeps nothing: what a spawn finds there is the caller\'s', async t => {
	t.not(versionKey('manager', {PATH: bin}), null);
	t.equal(versionKey('manager', {PATH: `:${bin}`}), null, 'an empty entry');
	t.equal(versionKey('manager', {PATH: `tools:${bin}`}), null, 'a relative one');
});

t.test('the locale is part of the key, and a missing tool is null', async t => {
	const [c, german] = [versionKey('manager', {...process.env, LANG: 'C'}), versionKey('manager', {...process.env, LANG: 'de_DE.UTF-8'})];
	t.ok(c !== null && german !== null && c !== german, 'one key per locale');
	t.equal(versionKey('no-such-tool-hlab'), null);
	t.equal((await toolVersions(['no-such-tool-hlab']))['no-such-tool-hlab'], null);
});
