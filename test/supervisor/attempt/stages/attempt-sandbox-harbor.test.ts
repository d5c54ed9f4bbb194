import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../../../files/install-root.js';
import type {AdmittedAgent} from '../../../../supervisor/agent/index.js';
import type {HostSession} from '../../../../supervisor/host/index.js';
import {agentSandbox, hiddenFromTasks, hostSandbox, type HiddenInputs} from '../../../../supervisor/attempt/stages/attempt-sandbox.js';
import type {Plan} from '../../../../supervisor/plan/plan-schema.js';

const task = (dir: string) => ({id: 'x', dir, workdir: '/app', copies: [], agent_timeout_ms: 1000, verifier_timeout_ms: 1000, cpus: null, memory_bytes: null});

function inputs(harborDir: string, taskDir: string): HiddenInputs {
	const plan = {controller: null, sandbox: {}, harbor: {dir: harborDir, workdir: '/app', tasks: [task(taskDir)]}} as unknown as Plan;
	return {plan, dir: '/var/tmp/evidence', runtime: {dir: null}, options: {planPath: '/var/tmp/plan.json'}} as HiddenInputs;
}

t.test('a Harbor plan hides its task folders and the folder they were frozen from', async t => {
	const hidden = hiddenFromTasks(inputs('/var/tmp/bench', '/var/tmp/bench/task-a'));
	t.ok(hidden.includes('/var/tmp/bench/task-a'));
	t.ok(hidden.includes('/var/tmp/bench'));
});

t.test('but not a frozen-from folder that holds the installation, which commands run with', async t => {
	const around = join(installRoot, '..');
	const hidden = hiddenFromTasks(inputs(around, '/var/tmp/elsewhere/task-a'));
	t.notOk(hidden.includes(around));
	t.ok(hidden.includes('/var/tmp/elsewhere/task-a'), 'its task folders still are');
});

t.test('a host candidate and a third-party agent are shown their workspace at the WORKDIR', async t => {
	const attempt = inputs('/var/tmp/bench', '/var/tmp/bench/task-a');
	const host = {dir: '/var/tmp/host', identity: {path: '/var/tmp/host/bin/h', launched: '/var/tmp/host/bin/h'}} as unknown as HostSession;
	t.same(hostSandbox(attempt, host)?.(['/run/ws', '/run/state']).mounts, [{source: '/run/ws', target: '/app', writable: true}]);
	const agent = {packageDir: '/var/tmp/store/pkg', loaded: {dir: '/var/tmp/specs'}} as unknown as AdmittedAgent;
	t.same(agentSandbox(attempt, agent)?.(['/run/ws', '/run/home', '/run/tmp']).mounts, [{source: '/run/ws', target: '/app', writable: true}]);
	const plain = {...attempt, plan: {...attempt.plan, harbor: undefined}} as HiddenInputs;
	t.equal(agentSandbox(plain, agent)?.(['/run/ws']).mounts, undefined, 'other plans mount nothing');
});
