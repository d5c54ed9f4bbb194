import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../../files/install-root.js';
import {Report} from '../../../supervisor/attempt/report/report-schema.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

const sampleScript = join(installRoot, 'examples', 'controller', 'sample-controller.responses.json');

t.test('freezing a controller plan the scripted provider cannot play says what will happen and how to fix it, in one line', async t => {
	const dir = await tempDir(t, 'hlab-scripted-coverage-');
	const built = await hlab(['controller', 'build', '--out', 'controller'], {cwd: dir});
	t.equal(built.record.exit_code, 0, built.stderr);
	// Before, this froze in silence, and then every task of the attempt failed with HTTP 400 and no hint.
	const frozen = await hlab(['eval', '--experiment-controller', 'controller/controller.json', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, 'still frozen: check controller takes such a plan');
	const warned = frozen.stderr.split('\n').filter(line => /scripted provider/.test(line));
	t.equal(warned.length, 1, frozen.stderr);
	t.match(warned[0], /^hlab: the scripted provider has nothing to play for controller tasks greeting, shout, reverse and 1 more .*fails each with reason provider \(HTTP 400 unknown_task\).*--responses FILE/);
	// The warning says what the attempt then does.
	const run = await hlab(['eval', '--plan', 'plan.json', '--artifacts', 'attempt'], {cwd: dir});
	t.equal(run.record.exit_code, 1, run.stderr);
	const report = Report.parse(JSON.parse(await readFile(join(dir, 'attempt', 'report.json'), 'utf8')));
	t.ok(report.tasks.every(task => task.reason === 'provider'), report.tasks.map(task => task.reason).join(', '));
});

t.test('with a response script nothing is said', async t => {
	const dir = await tempDir(t, 'hlab-scripted-coverage-');
	await hlab(['controller', 'build', '--out', 'controller'], {cwd: dir});
	const frozen = await hlab(['eval', '--experiment-controller', 'controller/controller.json', '--responses', sampleScript, '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
	t.notMatch(frozen.stderr, /nothing to play/);
});
