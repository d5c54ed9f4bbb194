import t from 'tap';
import {runInGroup} from '../../../process/index.js';
import {pairSummary} from '../../../supervisor/pair/pair-summary.js';
import {PairRecord} from '../../../supervisor/pair/pair-record.js';
import {sideLeaks} from '../../../supervisor/pair/side-leaks.js';
import {checkNoLeaks} from '../../leak-check.js';

checkNoLeaks(t);

t.test('a side whose executable leaves a process behind is named as hlab supervise names it', async t => {
	// The shell exits once its background sleep has started (so it is named sleep, not the shell it forked from); the sleep outlives it.
	const {record} = await runInGroup({argv: ['sh', '-c', 'sleep 30 & sleep 0.3; exit 0'], graceMs: 200});
	t.equal(record.leaks.length, 1, 'the run itself recorded one leak');
	const leaks = sideLeaks('candidate', record, 8);
	t.same(leaks.ended, [{pid: record.leaks[0], comm: 'sleep'}]);
	t.equal(leaks.backend, record.containment);
	t.match(leaks.message, `candidate: ended 1 process(es) that outlived the candidate [${record.containment}]: ${record.leaks[0]} (sleep)`);
	t.match(leaks.message, /its report lists 8 process\(es\) that outlived their task/);
});

t.test('a side that leaked nothing has no message, and an unaudited report is unknown, not zero', async t => {
	const {record} = await runInGroup({argv: ['true']});
	const leaks = sideLeaks('baseline', record, null);
	t.same({ended: leaks.ended, reported: leaks.reported, message: leaks.message}, {ended: [], reported: null, message: null});
});

t.test('hlab pair prints a leaks line for each side that leaked', async t => {
	const {record} = await runInGroup({argv: ['sh', '-c', 'sleep 30 & sleep 0.3; exit 0'], graceMs: 200});
	const side = (name: 'baseline' | 'candidate', leaks: ReturnType<typeof sideLeaks>) => ({
		state: 'ended', argv: [], artifacts: name, process: null, stdout: null, stderr: null, exit_code: 0, signal: null, failure: null,
		wall_ms: 1, report: null, comparable: true, problems: [], leaks,
	});
	// The sides are checked against pair.json's schema; the summary reads nothing else but the (empty) tasks and decision.
	const sides = PairRecord.shape.sides.parse({baseline: side('baseline', sideLeaks('baseline', record, 0)), candidate: side('candidate', sideLeaks('candidate', record, 3))});
	const text = pairSummary({status: 'finished', tasks: [], comparison: null, sides} as unknown as PairRecord, '/tmp/pair');
	t.match(text, /^leaks: baseline: ended 1 process/m);
	t.match(text, /^leaks: candidate: ended 1 process.*; its report lists 3/m);
});

