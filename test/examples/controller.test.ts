import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import type {ControllerTask, ReportSummary} from '../../controller-protocol/index.js';
import {buildSampleController, createControllerClient, fileDigest, verifyIdentityFiles} from '../../supervisor/controller/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {scratch} from '../supervisor/controller/fixtures.js';

checkNoLeaks(t);

t.test('the sample controller, bundled and pinned, answers all five methods through the client', async t => {
	const dir = await scratch(t);
	const identity = await buildSampleController(join(dir, 'build'));
	const bundle = join(dir, 'build', 'experiment-controller.mjs');
	t.same(identity.command, [process.execPath, bundle], 'it runs this Node executable on the bundle');
	t.same(identity.files, {[process.execPath]: await fileDigest(process.execPath), [bundle]: await fileDigest(bundle)}, 'both are pinned by digest');
	t.same(JSON.parse(await readFile(join(dir, 'build', 'controller.json'), 'utf8')), identity, 'controller.json is the identity');
	t.notMatch(await readFile(bundle, 'utf8'), /from ['"](?:\.|zod|harness-lab)/, 'the bundle imports nothing but Node built-ins');

	const client = createControllerClient({identity, evidenceDir: join(dir, 'attempt')});
	const tasks = await client.call('tasks', {});
	if (!tasks.ok) return t.fail(tasks.error.message);
	const ids = tasks.value.tasks.map(task => task.id);
	t.ok(ids.length >= 3 && ids.length <= 4, 'a small task source');
	t.notMatch(JSON.stringify(tasks.value), /ALPHA|four\\nthree|"5\\n"/, 'the tasks do not carry their answers');

	const schedule = await client.call('schedule', {task_ids: ids});
	t.same(schedule.ok ? schedule.value.order : schedule.error, ids);

	const shout = tasks.value.tasks.find(task => task.id === 'shout') as ControllerTask;
	const workspace = join(dir, 'workspace');
	await mkdir(workspace);
	const setup = await client.call('setup', {task: shout, workspace});
	t.ok(setup.ok, 'setup succeeds');
	t.equal(await readFile(join(workspace, 'words.txt'), 'utf8'), shout.files?.['words.txt'], 'setup writes the starting files');

	const claim = {messages: [{role: 'assistant', content: 'I wrote shout.txt, all done!'}], result: {status: 'done', final_text: 'solved'}};
	const unsolved = await client.call('score', {task: shout, workspace, ...claim});
	t.match(unsolved.ok ? unsolved.value : unsolved.error, {passed: false, score: 0, details: /shout\.txt is missing/}, 'a claim of success without the file does not pass');
	await writeFile(join(workspace, 'shout.txt'), 'ALPHA\nBRAVO\nCHARLIE\n');
	const solved = await client.call('score', {task: shout, workspace, messages: [], result: null});
	t.same(solved.ok ? solved.value : solved.error, {passed: true, score: 1, details: 'shout.txt matches'}, 'the right file passes without any claim');

	const report = (passed: number): ReportSummary => ({
		plan_digest: 'sha256:plan',
		tasks: ids.map((id, index) => ({id, passed: index < passed, score: null, failure: null, turns: 2, total_tokens: null, wall_ms: 10})),
		totals: {tasks: ids.length, passed, failed: ids.length - passed, turns: 2 * ids.length, total_tokens: null, cost_usd: null, wall_ms: 40},
	});
	const accept = await client.call('accept', {baseline: report(2), candidate: report(3), policy: {concurrency: 2}});
	t.match(accept.ok ? accept.value : accept.error, {decision: 'accept', reason: /3 tasks.*baseline 2/});

	const unknown = await client.call('score', {task: {id: 'not-mine', prompt: 'p'}, workspace, messages: [], result: null});
	t.same(unknown.ok ? null : {reason: unknown.error.reason, code: unknown.error.code}, {reason: 'error_response', code: 'unknown_task'}, 'a task it does not know is an error response');
	t.same(await verifyIdentityFiles(identity), [], 'nothing it pinned changed');
});
