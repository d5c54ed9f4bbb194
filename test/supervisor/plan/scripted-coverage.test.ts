import {access} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../../files/install-root.js';
import {hlab} from '../../hlab.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

const sampleScript = join(installRoot, 'examples', 'controller', 'sample-controller.responses.json');

t.test('a controller plan the scripted provider cannot play is refused at freeze in one line naming --responses', async t => {
	const dir = await tempDir(t, 'hlab-scripted-coverage-');
	const built = await hlab(['controller', 'build', '--out', 'controller'], {cwd: dir});
	t.equal(built.record.exit_code, 0, built.stderr);
	// Before, this froze, and then every task of the attempt failed with HTTP 400 unknown_task.
	const refused = await hlab(['eval', '--experiment-controller', 'controller/controller.json', '--freeze', 'plan.json'], {cwd: dir});
	t.equal(refused.record.exit_code, 2, refused.stderr);
	const lines = refused.stderr.trim().split('\n');
	t.equal(lines.length, 1, refused.stderr);
	t.match(lines[0], /scripted provider has nothing to play for controller task.*--responses FILE/);
	await t.rejects(access(join(dir, 'plan.json')), 'no plan was written');
	const frozen = await hlab(['eval', '--experiment-controller', 'controller/controller.json', '--responses', sampleScript, '--freeze', 'plan.json'], {cwd: dir});
	t.equal(frozen.record.exit_code, 0, frozen.stderr);
});
