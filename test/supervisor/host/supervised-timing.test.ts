import {mkdir, mkdtemp, readFile, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {closeHostSession, openHostSession, runHostTask, supervisedTiming} from '../../../supervisor/host/index.js';
import {truthful, writeSyntheticHost} from './synthetic-host.js';

checkNoLeaks(t);

const planDigest = `sha256:${'c'.repeat(64)}`;
const provider = {base_url: 'http://127.0.0.1:9/v1', model: 'm', api_key_env: null, reasoning_effort: null};
const ids = ['one', 'two'];

/** An attempt folder with a report; with `exe`, its tasks (the first `launched` of them) ran as a supervised host. */
async function attempt(root: string, name: string, exe: string | null, launched = ids.length): Promise<string> {
	const dir = join(root, name);
	await mkdir(dir, {recursive: true});
	if (exe !== null) {
		const session = await openHostSession({artifacts: dir, exe, planDigest, taskIds: ids});
		for (const [index, id] of ids.slice(0, launched).entries()) {
			const workspace = join(root, `${name}-work-${id}`);
			await mkdir(workspace);
			await runHostTask(session, {index, task: {id, prompt: 'p'}, workspace, stateDir: join(root, `${name}-state-${id}`), provider, maxSteps: 1, deadlineMs: 20_000});
		}
		await closeHostSession(session);
	}
	const report = join(dir, 'report.json');
	// The candidate's own claim of its duration, which supervised timing must ignore.
	await writeFile(report, JSON.stringify({plan_digest: planDigest, task_ids: ids, attempt_wall_ms: 1, tasks: ids.map(id => ({task_id: id, wall_ms: 1}))}));
	return report;
}

t.test('supervised timing', async t => {
	const root = await mkdtemp(join(tmpdir(), 'hlab-timing-'));
	const exe = await writeSyntheticHost(root, 'host', truthful);
	const hostA = await attempt(root, 'a', exe);
	const hostB = await attempt(root, 'b', exe);
	const plain = await attempt(root, 'plain', null);

	t.test('both sides supervised: wall times come from process.json only', async t => {
		const timing = await supervisedTiming(hostA, hostB);
		if (timing.kind !== 'supervised') throw new Error(`expected supervised timing, got ${JSON.stringify(timing)}`);
		const [a] = timing.sides;
		const first = JSON.parse(await readFile(join(root, 'a.host', 'tasks', '001-one', 'process.json'), 'utf8'));
		t.equal(a.tasks[0]!.wall_ms, first.wall_ms);
		t.equal(a.wall_ms, a.tasks.reduce((sum, task) => sum + task.wall_ms!, 0), 'the sum of the process records');
		t.ok(a.wall_ms! > 1, 'not the report\'s claimed duration');
		t.equal(a.complete, true);
	});

	t.test('a task that never launched makes the side\'s task sum unknown, not the sum of the others', async t => {
		const short = await attempt(root, 'short', exe, 1);
		const timing = await supervisedTiming(hostA, short);
		if (timing.kind !== 'supervised') throw new Error(`expected supervised timing, got ${JSON.stringify(timing)}`);
		const [, side] = timing.sides;
		t.ok(side.tasks[0]!.wall_ms !== null, 'the launched task has its process record');
		t.equal(side.tasks[1]!.wall_ms, null, 'the other never launched');
		t.equal(side.complete, false);
		t.equal(side.wall_ms, null, 'a sum with an unknown part is unknown');
	});

	t.test('a comparison that mixes supervised and unsupervised timings is refused', async t => {
		for (const [x, y] of [[hostA, plain], [plain, hostB]] as const) {
			const timing = await supervisedTiming(x, y);
			t.equal(timing.kind, 'refused');
			t.equal(timing.kind === 'refused' ? timing.reason : null, 'mixed_timing');
		}
	});

	t.test('two unsupervised sides are left to the ordinary comparison', async t => {
		t.same(await supervisedTiming(plain, plain), {kind: 'unsupervised'});
	});

	t.test('a process record that is not a launch of the measured binary is refused', async t => {
		const path = join(root, 'b.host', 'tasks', '002-two', 'process.json');
		const record = JSON.parse(await readFile(path, 'utf8'));
		await writeFile(path, JSON.stringify({...record, argv: ['/bin/true', 'host-worker']}));
		const timing = await supervisedTiming(hostA, hostB);
		t.equal(timing.kind === 'refused' ? timing.reason : timing.kind, 'process_record');
	});
});
