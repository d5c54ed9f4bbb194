import {mkdir, rm} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {admit} from '../../../supervisor/plan/admission.js';
import {buildPlan} from '../../../supervisor/plan/freeze.js';
import {copyInstallation} from '../../e2e/install-copy.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

t.test('a deciding module that no longer links is a named difference at admission, not a crash', async t => {
	const dir = await tempDir(t, 'hlab-admission-');
	const copy = await copyInstallation(join(dir, 'install'));
	const cwd = join(dir, 'work');
	await mkdir(cwd);
	const plan = await buildPlan({
		provider: {kind: 'scripted', model: 'reference'}, selection: 'answer_from_prompt', maxSteps: 6, deadlineMs: 60_000,
		policyPath: null, controllerPath: null, configPath: null, cwd,
	});
	// Admitted against the copy (the tasks themselves still come from this installation).
	const options = {configPath: null, cwd, root: copy};
	const graphFailure = /scorer: the module graph of the deciding code cannot be computed: .*Could not resolve "\.\/table\.js"/;
	t.notMatch((await admit(plan, options)).differences.join('\n'), graphFailure);
	await rm(join(copy, 'dist/supervisor/compare/table.js'));
	const broken = await admit(plan, options);
	t.equal(broken.admitted, false);
	t.match(broken.differences.join('\n'), graphFailure);
});
