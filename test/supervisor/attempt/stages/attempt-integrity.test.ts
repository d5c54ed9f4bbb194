import t from 'tap';
import type {CandidateSnapshot} from '../../../../engine/candidate/snapshot.js';
import type {LoadedCartridge} from '../../../../cartridges/index.js';
import {checkSandbox} from '../../../../process/index.js';
import {AttemptRecord} from '../../../../supervisor/attempt/stages/attempt-record.js';
import {attemptIntegrity, type RunningCode} from '../../../../supervisor/attempt/stages/attempt-integrity.js';
import type {RemotePlacement, TaskExecutor} from '../../../../supervisor/attempt/index.js';
import type {Plan} from '../../../../supervisor/plan/plan-schema.js';
import {checkNoLeaks} from '../../../leak-check.js';

checkNoLeaks(t);

// Only the fields the label reads: what the plan froze (sandbox, cartridge) and what the services loaded.
const usable = checkSandbox();
const sandboxed = {sandbox: {kind: 'bubblewrap', version: usable.ok ? usable.version : '0'}, cartridge: undefined} as unknown as Plan;
const unsandboxed = {cartridge: undefined} as unknown as Plan;
const local: RunningCode = {candidate: null, placement: {kind: 'local', executor: {timing: 'in-process'} as TaskExecutor}, sandboxedRunner: false};
const candidate = {code_digest: 'sha256:c'} as CandidateSnapshot;

function queued(auth: object): RunningCode {
	return {candidate: null, placement: {kind: 'queue', remote: {kind: 'queue', queue: {name: 'q', redis: 'redis://127.0.0.1:6379', ...auth}, timing: 'in-process'} as unknown as RemotePlacement}, sandboxedRunner: false};
}

t.test('the built-in engine under --sandbox is contained; without it, trusted-code for want of --sandbox', async t => {
	t.same(attemptIntegrity(sandboxed, local, null), usable.ok ? {label: 'contained', reasons: []} : {label: 'trusted-code', reasons: ['sandbox-unavailable']});
	t.same(attemptIntegrity(unsandboxed, local, null), {label: 'trusted-code', reasons: ['no-sandbox']});
});

t.test('in-process candidate code is trusted-code even under --sandbox: it runs in the supervisor\'s threads', async t => {
	t.same(attemptIntegrity(sandboxed, {...local, candidate}, null).reasons.filter(reason => reason !== 'sandbox-unavailable'), ['in-process-candidate']);
	t.same(attemptIntegrity(unsandboxed, {...local, candidate}, null), {label: 'trusted-code', reasons: ['no-sandbox', 'in-process-candidate']});
});

t.test('a cartridge with tools or resources is trusted-code under --sandbox; one that could not be loaded counts as having them', async t => {
	const plan = {...sandboxed, cartridge: {dir: '/c'}} as unknown as Plan;
	const withTools = {tools: [{name: 'x'}], resources: []} as unknown as LoadedCartridge;
	const bare = {tools: [], resources: []} as unknown as LoadedCartridge;
	t.ok(attemptIntegrity(plan, local, withTools).reasons.includes('cartridge-tools'));
	t.ok(attemptIntegrity(plan, local, null).reasons.includes('cartridge-tools'));
	t.notOk(attemptIntegrity(plan, local, bare).reasons.includes('cartridge-tools'), 'a cartridge of data alone brings no code');
});

t.test('a queue without a secret is named, wherever the queue records the fact', async t => {
	t.ok(attemptIntegrity(sandboxed, queued({auth: 'none'}), null).reasons.includes('queue-without-secret'));
	t.notOk(attemptIntegrity(sandboxed, queued({auth: 'hmac-sha256'}), null).reasons.includes('queue-without-secret'));
	t.notOk(attemptIntegrity(sandboxed, queued({}), null).reasons.includes('queue-without-secret'), 'no fact recorded: nothing claimed');
});

t.test('an attempt.json from before the labels reads as trusted-code', async t => {
	const record = {
		schema: 'harness-lab/attempt@1', attempt_id: 'a', process_marker: 'M=1', side: 'baseline', plan_digest: 'sha256:p', started_at: '',
		supervisor: {pid: 1, start_time: null, argv: []},
		executable: {node_path: '/n', node_digest: null, hlab_version: '0', build_digest: 'sha256:b', build_files: 1, git_head: null},
		node: {version: 'v22', platform: 'linux', arch: 'x64', cpus: 1}, packages: [], candidate: null, service_bindings: {}, loaded_modules: [], concurrency: 1, keep_workdirs: false,
	};
	t.same(AttemptRecord.parse(record).integrity, {label: 'trusted-code', reasons: ['recorded-before-integrity-labels']});
});

t.test('a candidate\'s plugins and a cartridge\'s tools in the sandboxed task runner leave the attempt contained', async t => {
	const runner = {...local, candidate, sandboxedRunner: true};
	t.same(attemptIntegrity(sandboxed, runner, null), usable.ok ? {label: 'contained', reasons: []} : {label: 'trusted-code', reasons: ['sandbox-unavailable']});
	t.ok(attemptIntegrity(sandboxed, {...runner, sandboxedRunner: false}, null).reasons.includes('in-process-candidate'), 'the same candidate in the supervisor\'s threads is not');
});
