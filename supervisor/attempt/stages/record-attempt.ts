import {cpus} from 'node:os';
import {join} from 'node:path';
import {digestFile} from '../../../files/digest.js';
import {installRoot} from '../../../files/install-root.js';
import {fingerprintHarness} from '../../../harness/index.js';
import {writeJson} from '../../../files/write-json.js';
import {readStat} from '../../../process/proc-table.js';
import {buildDigest, gitHead} from '../../evidence/build-metadata.js';
import {packageFingerprints} from '../../plan/fingerprints.js';
import {hlabVersion} from '../../plan/hlab-version.js';
import {AttemptRecord, attemptSchema} from './attempt-record.js';
import {sealScheme} from '../../evidence/seal/index.js';
import type {Machine} from './measure-machine.js';
import {hostRef} from './attempt-host.js';
import {candidateIdentity} from './candidate-evidence.js';
import type {AttemptContext} from './attempt-context.js';
import type {Services} from './start-services.js';

/** What the supervisor running the attempt is made of, measured by itself. */
export interface SupervisorCode {
	build: {digest: string; files: number};
	nodeDigest: string | null;
	head: string | null;
	packages: AttemptRecord['packages'];
}

/**
 * Starts hashing the supervisor's own code and node: independent measurements, side by side, while the services start.
 * `packages` are the fingerprints admission measured a moment ago from the same installation: walked once per attempt, not twice.
 */
export function measureSupervisor(packages: AttemptRecord['packages'] | null = null): Promise<SupervisorCode> {
	const measuring = Promise.all([buildDigest(), digestFile(process.execPath), gitHead(), packages ?? packageFingerprints(installRoot)])
		.then(([build, nodeDigest, head, packages]) => ({build, nodeDigest, head, packages}));
	// Awaited by recordAttempt; an attempt that ends before it must not crash on an unawaited rejection.
	measuring.catch(() => undefined);
	return measuring;
}

/** `attempt.json`: who runs the attempt, with what code, against which services; durable, since recovery trusts it. */
export async function recordAttempt(attempt: AttemptContext, services: Services, measuring: Promise<SupervisorCode>, measuringMachine: Promise<Machine>): Promise<void> {
	const [{build, nodeDigest, head, packages}, machine] = await Promise.all([measuring, measuringMachine]);
	const {plan} = attempt;
	const record: AttemptRecord = {
		schema: attemptSchema,
		attempt_id: attempt.attemptId,
		process_marker: `${attempt.markerKey}=1`,
		side: attempt.side,
		plan_digest: plan.plan_digest,
		started_at: new Date().toISOString(),
		supervisor: {pid: process.pid, start_time: readStat(process.pid)?.startTime ?? null, argv: process.argv},
		executable: {
			node_path: process.execPath,
			node_digest: nodeDigest,
			hlab_version: hlabVersion,
			build_digest: build.digest,
			build_files: build.files,
			git_head: head,
		},
		node: {version: process.version, platform: process.platform, arch: process.arch, cpus: cpus().length},
		machine,
		packages,
		candidate: candidateIdentity(services.candidate),
		host: hostRef(services.host),
		agent: services.agent?.identity ?? null,
		placement: services.placement.kind,
		queue: services.placement.kind === 'queue' ? services.placement.remote.queue : null,
		service_bindings: services.bindings,
		harness: attempt.options.harness == null ? null : fingerprintHarness(attempt.options.harness),
		loaded_modules: loadedModules(plan.composition.modules, services),
		concurrency: plan.policy.concurrency,
		threads: services.placement.kind === 'local' ? services.placement.executor.threads : null,
		keep_workdirs: attempt.options.keepWorkdirs,
		executor: executorOf(services),
		integrity: services.integrity,
		seal: {scheme: sealScheme, key_path: attempt.keyPath},
	};
	await writeJson(join(attempt.dir, 'attempt.json'), AttemptRecord.parse(record), {durable: true});
}

function executorOf(services: Services): AttemptRecord['executor'] {
	if (services.placement.kind !== 'local') return null;
	if (services.host !== null) return 'host';
	if (services.agent !== null) return 'agent';
	return services.sandboxedRunner ? 'sandboxed-runner' : 'in-process';
}

function loadedModules(modules: string[], services: Services): AttemptRecord['loaded_modules'] {
	return modules.map(slot => ({slot, implementation: implementationOf(slot, services)}));
}

/** In a host attempt every slot is filled by the host's own build, not by this supervisor's code. */
function implementationOf(slot: string, services: Services): string | null {
	if (services.host !== null) return `host ${services.host.identity.digest}`;
	if (services.agent !== null) return `agent ${services.agent.identity.adapter}`;
	if (slot !== 'candidate') return 'builtin';
	return services.candidate === null ? null : `candidate ${services.candidate.code_digest}`;
}
