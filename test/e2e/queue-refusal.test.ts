import {appendFile, readFile} from 'node:fs/promises';
import {join, relative} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {builtinTasks} from '../../tasks/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {startRedis} from '../supervisor/queue/redis-server.js';
import {freeze, scratch} from './experiment-fixture.js';
import {copyInstallation} from './install-copy.js';
import {answeringNodes, startHlab, waitFor} from './queue-fixture.js';

checkNoLeaks(t);

t.test('a worker from a changed installation refuses the attempt, listing every difference, and takes none of its tasks', async t => {
	const redis = await startRedis(t);
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'json_config_migration,answer_from_prompt', policy: {concurrency: 2}});
	const changedCopy = await copyInstallation(join(dir, 'changed'));
	const grader = builtinTasks.find(task => task.id === 'json_config_migration')!.sourceFiles().find(path => /grad|task\.ts$/.test(path))!;
	const name = relative(installRoot, grader);
	await appendFile(join(changedCopy, name), '\n// an edit after freezing\n');
	const changed = await startHlab(t, changedCopy, ['queue-node', '--queue', redis.url, '--name', 'changed']);
	const coordinator = await startHlab(t, undefined, ['eval', '--plan', plan, '--artifacts', join(dir, 'queued'), '--queue', redis.url, '--json']);
	await waitFor('the refusal', () => changed.stderr().includes('refused attempt'));
	const good = await startHlab(t, await copyInstallation(join(dir, 'good')), ['queue-node', '--queue', redis.url, '--name', 'good']);
	const run = await coordinator.ended;
	t.equal(run.record.exit_code, 0, coordinator.stderr());
	t.match(changed.stderr(), `task sources: ${name} changed`);
	t.match(changed.stderr(), `scorer: ${name} changed`);
	t.match(coordinator.stderr(), new RegExp(`worker changed refused this attempt: .*task sources: ${name.replaceAll('.', '\\.')} changed`), 'the coordinator says who refused and why');
	t.same(await answeringNodes(join(dir, 'queued')), ['good', 'good'], 'the refusing worker took no task');
	t.equal(Report.parse(JSON.parse(await readFile(join(dir, 'queued', 'report.json'), 'utf8'))).totals.passed, 2);
	await Promise.all([changed.stop(), good.stop()]);
});
