import {appendFile, mkdir, readFile} from 'node:fs/promises';
import {join, relative} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../process/index.js';
import {builtinTasks} from '../../tasks/index.js';
import {installRoot} from '../../files/install-root.js';
import {checkNoLeaks} from '../leak-check.js';
import {scratch} from './experiment-fixture.js';
import {copyInstallation, evalEntry} from './install-copy.js';

checkNoLeaks(t);

t.test('a grader file changed after freezing is refused at admission, naming the file', async t => {
	const dir = await scratch(t);
	const copy = await copyInstallation(join(dir, 'install'));
	const work = join(dir, 'work');
	await mkdir(work);
	const task = builtinTasks[0]!;
	const hlab = (...args: string[]) => runInGroup({argv: [process.execPath, evalEntry(copy), 'eval', ...args], cwd: work, deadlineMs: 120_000});
	const frozen = await hlab('--provider', 'scripted', '--model', 'reference', '--task', task.id, '--freeze', 'plan.json');
	t.equal(frozen.record.exit_code, 0, frozen.stderr?.toString() ?? "");
	// The grader source as the copied installation sees it; the repository itself is untouched.
	const grader = task.sourceFiles().find(path => /grad|task\.ts$/.test(path))!;
	const name = relative(installRoot, grader);
	await appendFile(join(copy, name), '\n// an edit after freezing\n');
	const run = await hlab('--plan', 'plan.json', '--artifacts', 'attempt', '--json');
	t.equal(run.record.exit_code, 1, 'the attempt fails');
	const report = JSON.parse(await readFile(join(work, 'attempt', 'report.json'), 'utf8'));
	t.equal(report.admission.admitted, false);
	const text = report.admission.differences.join('\n');
	t.match(text, `task sources: ${name} changed`);
	t.match(text, `scorer: ${name} changed`);
	t.same(report.tasks.map((item: {reason: string}) => item.reason), ['admission']);
});
