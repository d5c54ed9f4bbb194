import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {experimentLayout} from '../../../supervisor/experiment/index.js';
import {tempDir} from '../../temp-dir.js';

t.test('one candidate is candidate/; several are candidate-<name>/, a repeated name numbered; the default folder is under experiments/', async t => {
	const cwd = await tempDir(t);
	const one = experimentLayout('out', [{kind: 'file', path: '/a/step-budget.ts'}], cwd);
	t.same([one.out, one.plan, one.baseline, one.decision], ['out', 'out/plan.json', 'out/baseline', 'out/decision.json'].map(path => join(cwd, path)));
	t.same(one.candidates.map(candidate => candidate.dir), [join(cwd, 'out', 'candidate')]);
	const several = experimentLayout('out', [{kind: 'file', path: '/a/policy.ts'}, {kind: 'file', path: '/b/policy.ts'}, {kind: 'host', path: '/c/my host'}], cwd);
	t.same(several.candidates.map(candidate => [candidate.label, candidate.dir]), [['policy', 'policy'], ['policy-2', 'policy-2'], ['my_host', 'my_host']].map(([label, name]) => [label, join(cwd, 'out', `candidate-${name}`)]));
	t.match(experimentLayout(null, [{kind: 'file', path: '/a/x.ts'}], cwd).out, new RegExp(`^${join(cwd, 'experiments')}/\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d$`));
});

t.test('an existing folder and no candidate are refused before anything is written', async t => {
	const cwd = await tempDir(t);
	await mkdir(join(cwd, 'taken'));
	t.throws(() => experimentLayout('taken', [{kind: 'file', path: '/a/x.ts'}], cwd), /taken already exists; an experiment writes a new folder/);
	t.throws(() => experimentLayout('new', [], cwd), /needs at least one --candidate/);
});
