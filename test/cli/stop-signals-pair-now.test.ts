import {existsSync} from 'node:fs';
import {join} from 'node:path';
import t from 'tap';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {inputs, interrupted, readReport} from './stop-signals-pair-fixture.js';

checkNoLeaks(t);

t.test('hlab pair', async t => {
	const given = await inputs(t);

	t.test('a third SIGINT exits at once with 130 and kills the running side and its tasks; no report', async t => {
		const run = await interrupted(t, given, 'int3', ['SIGINT', 'SIGINT', 'SIGINT']);
		t.equal(run.record.exit_code, 130, run.stderr);
		t.ok(run.afterLastMs < 2000, `ended ${Math.round(run.afterLastMs)} ms after the third signal`);
		t.match(run.stderr, /^hlab: SIGINT a third time: stopping now: every process it started was killed; pair\.json keeps what it had/m);
		t.equal(run.pair.status, 'running', 'pair.json is as the third signal found it');
		t.notOk(existsSync(run.sideReport), 'the running side wrote no report');
		const recover = await hlab(['eval', '--recover', join(run.output, 'candidate'), '--json']);
		t.equal(recover.record.exit_code, 1, recover.stderr);
		t.equal((await readReport(run.sideReport)).completion, 'recovered', 'its attempt folder recovers');
		t.ok(run.root === null || !existsSync(run.root), 'recovery removed its runtime root');
	});
});
