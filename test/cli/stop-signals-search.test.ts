import {existsSync, readdirSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../leak-check.js';
import {testPolicy} from '../supervisor/search/search-policy-fixture.js';
import {tempDir} from '../temp-dir.js';
import {startHlab, waitFor} from './stop-signals-fixture.js';

checkNoLeaks(t);

t.test('hlab search run stopped by SIGTERM: the replicate in flight keeps its report, nothing after it starts, the search report says interrupted', async t => {
	const dir = await tempDir(t, 'hlab-stop-search-');
	const policy = join(dir, 'policy.json');
	await writeFile(policy, JSON.stringify(testPolicy()));
	const out = join(dir, 'out');
	const run = await startHlab(['search', 'run', '--policy', policy, '--suite', 'sales_report,json_config_migration', '--seeds', '3', '--out', out]);
	const evaluations = join(out, 'evaluations');
	const started = (): string[] => existsSync(evaluations) ? readdirSync(evaluations).filter(name => existsSync(join(evaluations, name, 'attempt.json'))) : [];
	t.ok(await waitFor(() => started().length > 0, 60_000), 'a replicate is running');
	process.kill(run.pid, 'SIGTERM');
	const {record, stderr} = await run.ended;
	t.equal(record.exit_code, 1, stderr?.toString() ?? '');
	t.match(stderr?.toString(), /^hlab: SIGTERM: stopping: the replicate in flight ends/m);
	const report = JSON.parse(await readFile(join(out, 'search-report.json'), 'utf8'));
	t.equal(report.stop_reason, 'interrupted');
	const ran = readdirSync(evaluations);
	t.ok(ran.length < 3, `the search stopped before its last replicate (${ran.length} of 3 started)`);
	for (const name of ran) t.ok(existsSync(join(evaluations, name, 'report.json')), `${name} wrote its report`);
});
