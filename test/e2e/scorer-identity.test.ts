import {readFileSync} from 'node:fs';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {installRoot} from '../../files/install-root.js';
import {getTask} from '../../tasks/index.js';
import {builtinScorer} from '../../supervisor/plan/identities.js';
import {checkNoLeaks} from '../leak-check.js';
import {scratch} from './experiment-fixture.js';
import {copyInstallation, evalEntry} from './install-copy.js';

checkNoLeaks(t);

const taskId = 'test_failure_fix';

/** One compiled file of each kind that grades or decides; the paths to adjust when one of them moves. */
const deciding = [
	{kind: 'a grader helper', file: 'dist/tasks/grading/run-node-tests.js'},
	{kind: 'the report schema', file: 'dist/supervisor/attempt/report/report-schema.js'},
	{kind: 'the usage accounting', file: 'dist/engine/loop/usage-meter.js'},
	{kind: 'a tool constraint', file: 'dist/engine/tools/workspace-path.js'},
	{kind: 'compare', file: 'dist/supervisor/compare/acceptance.js'},
	// What `hlab` runs from the bundle: the chunk that inlined the grader helper.
	{kind: 'the bundled grader helper', file: (JSON.parse(readFileSync(join(installRoot, 'dist', 'bundle', 'inputs.json'), 'utf8')) as Record<string, string>)['dist/tasks/grading/run-node-tests.js']!},
];
/** The `eval` command's definition: its help text decides nothing. */
const helpText = 'dist/cli/eval/index.js';

interface Admission {
	admitted: boolean;
	differences: string[];
}

t.test('an edit to any file that grades or decides refuses the old plan, naming the file; a help text edit does not', async t => {
	const dir = await scratch(t);
	const copy = await copyInstallation(join(dir, 'install'));
	const work = join(dir, 'work');
	await mkdir(work);
	const hlab = (...args: string[]) => runInGroup({argv: [process.execPath, evalEntry(copy), 'eval', ...args], cwd: work, deadlineMs: 120_000});
	let attempts = 0;
	const admission = async (): Promise<{exit: number | null; admission: Admission}> => {
		const artifacts = `attempt-${attempts += 1}`;
		const run = await hlab('--plan', 'plan.json', '--artifacts', artifacts, '--json');
		const report = JSON.parse(await readFile(join(work, artifacts, 'report.json'), 'utf8')) as {admission: Admission};
		return {exit: run.record.exit_code, admission: report.admission};
	};

	// Steps enough for the reference behaviour, so the admitted attempt shows a pass.
	const frozen = await hlab('--provider', 'scripted', '--model', 'reference', '--task', taskId, '--max-steps', '30', '--freeze', 'plan.json');
	t.equal(frozen.record.exit_code, 0, frozen.stderr?.toString() ?? '');
	const plan = JSON.parse(await readFile(join(work, 'plan.json'), 'utf8')) as {scorer: {digest: string; files: Record<string, string | null>}};
	t.equal(plan.scorer.digest, (await builtinScorer([getTask(taskId)!])).digest, 'a copied installation digests like the original');
	t.notOk(helpText in plan.scorer.files, 'the help text is outside the graph');

	for (const {kind, file} of deciding) {
		t.ok(file in plan.scorer.files, `${kind}: ${file} is part of the frozen scorer`);
		const original = await readFile(join(copy, file));
		await writeFile(join(copy, file), Buffer.concat([original, Buffer.from('\n// an edit after freezing\n')]));
		const {exit, admission: seen} = await admission();
		t.equal(exit, 1, `${kind}: the attempt fails`);
		t.equal(seen.admitted, false, `${kind}: admission refuses the old plan`);
		t.match(seen.differences.join('\n'), `scorer: ${file} changed`, `${kind}: the difference names the file`);
		await writeFile(join(copy, file), original);
	}

	const original = await readFile(join(copy, helpText), 'utf8');
	const edited = original.replace(/\.description\('/, ".description('(edited help) ");
	t.not(edited, original, 'the help text was edited');
	await writeFile(join(copy, helpText), edited);
	const {exit, admission: seen} = await admission();
	t.same(seen, {admitted: true, differences: []}, 'a file that does not decide leaves the plan admissible');
	t.equal(exit, 0, 'and the attempt runs to a pass');
});
