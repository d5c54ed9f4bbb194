import t from 'tap';
import {mkdtemp, readFile, rm} from 'node:fs/promises';
import {createWriteStream} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

const MiB = 1024 * 1024;

t.test('a 1 GiB stdout flood against an 8 MiB limit ends promptly with stdout_limit and bounded memory', async t => {
	const rssBefore = process.memoryUsage().rss;
	let peak = rssBefore;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
	const started = performance.now();
	const {record, stdout} = await runInGroup({argv: ['head', '-c', String(1024 * MiB), '/dev/zero'], stdoutLimit: 8 * MiB});
	clearInterval(sampler);
	const elapsed = performance.now() - started;
	t.equal(record.failure, 'stdout_limit');
	t.equal(record.stdout.overflowed, true);
	t.equal(record.stdout.bytes_kept, 8 * MiB, 'exactly the limit is kept');
	t.equal(stdout?.length, 8 * MiB);
	t.ok(record.stdout.bytes_seen! > 8 * MiB, 'the overflow is counted, not hidden');
	t.ok(record.stdout.bytes_seen! < 1024 * MiB, 'the flood was stopped before it finished');
	t.ok(elapsed < 5000, `ended after ${Math.round(elapsed)} ms`);
	t.ok(peak - rssBefore < 64 * MiB, `memory grew by ${Math.round((peak - rssBefore) / MiB)} MiB`);
});

t.test('a stderr overflow is its own named failure', async t => {
	const {record, stderr} = await runInGroup({argv: ['sh', '-c', 'head -c 300000 /dev/zero >&2; sleep 300'], stderrLimit: 256 * 1024, graceMs: 200});
	t.equal(record.failure, 'stderr_limit');
	t.equal(stderr?.length, 256 * 1024);
	t.same(record.survivors, []);
});

t.test('limits count bytes, not characters', async t => {
	// 'é' is two bytes in UTF-8: three of them are six bytes.
	const {record, stdout} = await runInGroup({argv: ['printf', 'ééé'], stdoutLimit: 5});
	t.equal(record.failure, 'stdout_limit');
	t.equal(record.stdout.bytes_seen, 6);
	t.equal(stdout?.length, 5);
	const exact = await runInGroup({argv: ['printf', 'ééé'], stdoutLimit: 6});
	t.equal(exact.record.failure, null, 'output exactly at the limit is not an overflow');
});

t.test('output can stream to a file up to the limit', async t => {
	const dir = await mkdtemp(path.join(tmpdir(), 'hlab-limit-'));
	t.teardown(() => rm(dir, {recursive: true, force: true}));
	const file = path.join(dir, 'stdout.txt');
	const {record, stdout} = await runInGroup({argv: ['sh', '-c', 'seq 1 100000'], stdout: {kind: 'stream', stream: createWriteStream(file)}, stdoutLimit: 1000});
	t.equal(stdout, null, 'nothing is buffered in memory for a file sink');
	t.equal(record.failure, 'stdout_limit');
	t.equal((await readFile(file)).length, 1000);
});
