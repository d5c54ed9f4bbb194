import {join} from 'node:path';
import t from 'tap';
import {readHarborTask} from '../../../tasks/harbor/index.js';
import {installedPackages} from '../../../tasks/harbor/installed-packages.js';
import {parseDockerfile} from '../../../tasks/harbor/dockerfile.js';
import {tempDir} from '../../temp-dir.js';
import {absentPackage, writeHarborTask, writeThreeTasks} from './harbor-fixture.js';

const noOverride = {agentDeadlineMs: null, memoryBytes: null};
const root = await tempDir(t, 'hlab-harbor-read-');
const three = await writeThreeTasks(root);

/** A task like the solvable one with this Dockerfile. */
async function withDockerfile(id: string, dockerfile: string, extra: Record<string, string> = {}): Promise<ReturnType<typeof readHarborTask>> {
	const dir = await writeHarborTask(root, id, {instruction: 'x\n', toml: '[agent]\ntimeout_sec = 5\n', dockerfile, testSh: 'true\n', extra});
	return readHarborTask(dir, noOverride);
}

t.test('a task is read with its WORKDIR, its COPY into it, its timeouts and its memory', async t => {
	const read = readHarborTask(three.solvable, noOverride);
	if (!read.ok) return t.fail(read.problems.join('; '));
	t.same(read.task, {id: 'solvable', dir: three.solvable, workdir: '/app', copies: [{from: 'seed.txt', to: 'seed.txt'}], agent_timeout_ms: 60_000, verifier_timeout_ms: 30_000, cpus: 1, memory_bytes: 1024 ** 3});
	const overridden = readHarborTask(three.solvable, {agentDeadlineMs: 5000, memoryBytes: 123 * 1024 ** 2});
	t.equal(overridden.ok && overridden.task.agent_timeout_ms, 5000, 'the plan\'s --timeout wins over [agent] timeout_sec');
	t.equal(overridden.ok && overridden.task.memory_bytes, 123 * 1024 ** 2, 'and --memory-limit over memory_mb');
});

t.test('a Dockerfile that installs a package this machine lacks is refused, naming the package', async t => {
	t.notOk(installedPackages().has(absentPackage), `${absentPackage} is absent here (the fixture relies on it)`);
	t.ok(installedPackages().has('coreutils'), 'and coreutils is present');
	const read = readHarborTask(three.needsPackage, noOverride);
	t.notOk(read.ok);
	t.match(!read.ok && read.problems.join('\n'), new RegExp(`Dockerfile line 2: needs the package ${absentPackage}, which this machine does not have`));
});

t.test('what the machine cannot stand in for is refused with its reason', async t => {
	const cases: Array<[string, string, RegExp]> = [
		['alpine', 'FROM alpine:3.20\nWORKDIR /app\n', /FROM alpine:3.20 is not a Debian or Ubuntu image/],
		['python_alpine', 'FROM python:3.12-alpine\nWORKDIR /app\n', /FROM python:3.12-alpine is not a Debian/],
		['pip', 'FROM python:3.12-slim\nWORKDIR /app\nRUN pip install numpy\n', /RUN pip install numpy: only apt-get install/],
		['copy_outside', 'FROM debian:bookworm\nWORKDIR /app\nCOPY seed.txt /etc/seed.txt\n', /COPY to \/etc\/seed.txt lies outside the WORKDIR \/app/],
		['copy_missing', 'FROM debian:bookworm\nWORKDIR /app\nCOPY nothing.txt /app/\n', /COPY nothing.txt: not a file of environment\//],
		['no_workdir', 'FROM debian:bookworm\n', /names no WORKDIR/],
		['env', 'FROM debian:bookworm\nENV A=1\nWORKDIR /app\n', /ENV A is not stood in for without Docker/],
		['add_archive', 'FROM debian:bookworm\nWORKDIR /app\nADD data.tar.gz /app/\n', /ADD of an archive or a URL is not stood in for/],
		['registry_port', 'FROM registry.local:5000/alpine:3\nWORKDIR /app\n', /FROM registry.local:5000\/alpine:3 is not a Debian/],
		['workdir_in_machine', 'FROM debian:bookworm\nWORKDIR /usr/hlab-missing\n', /\/usr\/hlab-missing cannot be laid out here: \/usr exists/],
	];
	for (const [id, dockerfile, expected] of cases) {
		const read = await withDockerfile(id, dockerfile, {'environment/seed.txt': 's'});
		t.match(read.ok ? 'read' : read.problems.join('\n'), expected, id);
	}
});

t.test('apt\'s own variable, a registry with a port and an Ubuntu release tag are stood in for', async t => {
	const read = await withDockerfile('frontend', 'FROM registry.local:5000/library/ubuntu:noble\nARG DEBIAN_FRONTEND=noninteractive\nENV DEBIAN_FRONTEND noninteractive\nWORKDIR /app\n');
	t.ok(read.ok, read.ok ? 'read' : read.problems.join('; '));
});

t.test('folders and several sources are copied into the WORKDIR under their names', async t => {
	const read = await withDockerfile('copies', 'FROM ubuntu:22.04\nWORKDIR /task/work\nCOPY data/ ./data/\nCOPY a.txt b.txt /task/work/\nRUN mkdir -p /task/work/out\n', {
		'environment/data/one.txt': '1', 'environment/a.txt': 'a', 'environment/b.txt': 'b',
	});
	if (!read.ok) return t.fail(read.problems.join('; '));
	t.equal(read.task.workdir, '/task/work');
	t.same(read.task.copies, [{from: 'data', to: 'data'}, {from: 'a.txt', to: 'a.txt'}, {from: 'b.txt', to: 'b.txt'}]);
});

t.test('a task without instruction.md, task.toml or tests/test.sh is refused for each', async t => {
	const read = readHarborTask(join(root, 'nowhere'), noOverride);
	t.notOk(read.ok);
	t.match(!read.ok && read.problems.join('\n'), /instruction.md is missing[^]*tests\/test.sh \(the verifier\) is missing[^]*task.toml is missing[^]*environment\/Dockerfile is missing/);
});

t.test('the Dockerfile reader joins continuations and drops comments', async t => {
	t.same(parseDockerfile('# c\nFROM x\n\nRUN a \\\n  # inside\n  && b\nworkdir /app\n').map(item => [item.keyword, item.args, item.line]), [['FROM', 'x', 2], ['RUN', 'a && b', 4], ['WORKDIR', '/app', 7]]);
});
