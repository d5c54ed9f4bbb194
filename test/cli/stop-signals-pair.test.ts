import {existsSync} from 'node:fs';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {inputs, interrupted, readReport} from './stop-signals-pair-fixture.js';

checkNoLeaks(t);

t.test('hlab pair', async t => {
	const given = await inputs(t);

	t.test('SIGHUP: the running side writes its report, pair.json records the interruption', async t => {
		const run = await interrupted(t, given, 'hup', ['SIGHUP']);
		t.equal(run.record.exit_code, 1, run.stderr);
		t.match(run.stderr, /^hlab: SIGHUP: stopping: .*; press Ctrl-C again to stop faster$/m);
		t.match(run.pair, {status: 'interrupted', interruption: {signal: 'SIGHUP'}});
		const report = await readReport(run.sideReport);
		t.equal(report.completion, 'interrupted');
		t.match(report.tasks, [{reason: 'aborted', message: /within 2000 ms/}]);
		t.ok(run.root === null || !existsSync(run.root), 'the side removed its runtime root');
	});

	t.test('a second SIGINT is passed on to the running side, whose faster stop still writes its report', async t => {
		const run = await interrupted(t, given, 'int2', ['SIGINT', 'SIGINT']);
		t.equal(run.record.exit_code, 1, run.stderr);
		t.match(run.stderr, /^hlab: SIGINT again: stopping faster: .*; press Ctrl-C again to stop now$/m);
		t.match(run.pair, {status: 'interrupted', interruption: {signal: 'SIGINT'}});
		const report = await readReport(run.sideReport);
		t.equal(report.completion, 'interrupted');
		t.match(report.tasks, [{reason: 'aborted', message: /within 250 ms/}], 'the side cut its grace');
		t.ok(run.root === null || !existsSync(run.root), 'the side removed its runtime root');
	});
});
