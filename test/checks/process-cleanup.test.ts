import t, {type Test} from 'tap';
import {readFile} from 'node:fs/promises';
import path from 'node:path';
import {CleanupCheckResult} from '../../checks/process-cleanup/result-schema.js';
import {cleanupScenarios} from '../../checks/process-cleanup/scenarios.js';
import {checkNoLeaks} from '../leak-check.js';
import {hlab} from '../hlab.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

const temp = (t: Test): Promise<string> => tempDir(t, 'hlab-check-');

t.test('the process-cleanup check passes and its result is truthful', async t => {
	const out = path.join(await temp(t), 'check');
	const {record, stdout} = await hlab(['check', 'process-cleanup', '--output', out]);
	t.equal(record.exit_code, 0, stdout);
	const result = CleanupCheckResult.parse(JSON.parse(await readFile(path.join(out, 'result.json'), 'utf8')));
	t.equal(result.passed, true);
	t.match(result.label, /framework verification/);
	t.same(result.scenarios.map(scenario => scenario.name), cleanupScenarios.map(scenario => scenario.name));
	for (const scenario of result.scenarios) {
		t.ok(scenario.started.length > 0, `${scenario.name} started processes`);
		t.same(scenario.survivors, [], `${scenario.name} left nothing`);
	}
	const swept = result.scenarios.find(scenario => scenario.name === 'setsid_grandchild')!;
	t.ok(swept.killed.some(entry => entry.how === 'sweep'), 'the daemon was found by the sweep');
});

t.test('a broken cleanup (sweep disabled) is reported as a failure by the same check', async t => {
	const out = path.join(await temp(t), 'check');
	const {record} = await hlab(['check', 'process-cleanup', '--output', out, '--disable-sweep']);
	t.equal(record.exit_code, 1);
	const result = CleanupCheckResult.parse(JSON.parse(await readFile(path.join(out, 'result.json'), 'utf8')));
	t.equal(result.passed, false);
	const failed = result.scenarios.filter(scenario => !scenario.passed).map(scenario => scenario.name);
	t.ok(failed.includes('setsid_grandchild') && failed.includes('escaped_without_tag'), `failed: ${failed.join(', ')}`);
	for (const name of failed) t.ok(result.scenarios.find(scenario => scenario.name === name)!.survivors.length > 0);
});

t.test('an existing output directory is refused', async t => {
	const dir = await temp(t);
	const {record, stderr} = await hlab(['check', 'process-cleanup', '--output', dir]);
	t.equal(record.exit_code, 2);
	t.match(stderr, /already exists/);
	t.equal(stderr.trim().split('\n').length, 1, 'one line');
});
