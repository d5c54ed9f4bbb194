import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import t from 'tap';
import type {Report} from '../../../supervisor/attempt/report/report-schema.js';
import {totalsOf} from '../../../supervisor/attempt/report/totals.js';
import {compareTiming} from '../../../supervisor/compare/compare-timing.js';
import type {ReportSide} from '../../../supervisor/compare/verify-reports.js';

const root = await mkdtemp(join(tmpdir(), 'hlab-compare-timing-'));
t.teardown(() => rm(root, {recursive: true, force: true}));

/** A side whose report.json exists on disk (supervisedTiming looks for the host folder beside it). */
async function side(label: 'baseline' | 'candidate', name: string, timing: Report['timing'], wall: number): Promise<ReportSide> {
	const dir = join(root, name);
	await mkdir(dir, {recursive: true});
	const tasks: Report['tasks'] = [{index: 0, task_id: 't0', status: 'passed', reason: null, message: null, grade: null, outcome: null, usage: null, wall_ms: wall, evidence: {}}];
	const report: Report = {
		schema: 'harness-lab/report@1', attempt_id: name, side: label, timing, host: null, integrity: {label: 'trusted-code', reasons: ['no-sandbox']}, plan_digest: 'sha256:x', completion: 'finished',
		admission: {admitted: true, differences: []}, candidate: null, task_ids: ['t0'], tasks, totals: totalsOf(tasks),
		passed: true, problems: [], started_at: '', ended_at: '', attempt_wall_ms: wall,
	};
	await writeFile(join(dir, 'report.json'), JSON.stringify(report));
	return {label, reportPath: join(dir, 'report.json'), dir, report, plan: null};
}

t.test('two in-process sides keep the reports\' supervisor-measured timings', async t => {
	const timing = await compareTiming(await side('baseline', 'a', 'in-process', 100), await side('candidate', 'b', 'in-process', 120));
	t.equal(timing.kind, 'unsupervised');
	t.equal(timing.baseline_wall_ms, 100);
	t.equal(timing.candidate_wall_ms, 120);
});

t.test('reports that declare different timings are refused as mixed', async t => {
	const timing = await compareTiming(await side('baseline', 'c', 'in-process', 100), await side('candidate', 'd', 'supervised-host', 100));
	t.equal(timing.kind, 'refused');
	t.equal(timing.reason, 'mixed_timing');
});

t.test('a report that claims supervised timing without host records is refused', async t => {
	const timing = await compareTiming(await side('baseline', 'e', 'supervised-host', 100), await side('candidate', 'f', 'supervised-host', 100));
	t.equal(timing.kind, 'refused');
	t.equal(timing.reason, 'process_record');
	t.match(timing.message, /no host record/);
});

t.test('an in-process report with a host folder beside only one side is refused as mixed', async t => {
	const a = await side('baseline', 'g', 'in-process', 100);
	await mkdir(join(root, 'g.host'));
	await writeFile(join(root, 'g.host', 'host.json'), '{}');
	const timing = await compareTiming(a, await side('candidate', 'h', 'in-process', 100));
	t.equal(timing.reason, 'mixed_timing');
});
