import {realpathSync} from 'node:fs';
import {homedir} from 'node:os';
import {dirname, join, relative, resolve} from 'node:path';
import {distPath, installRoot, suiteChunkPaths} from '../../../files/install-root.js';
import {containmentVariable, cpuLimitVariable, memoryLimitVariable, publishSandbox, sandboxVariable, type Sandbox} from '../../../process/index.js';
import {keyStoreDir} from '../../evidence/seal/index.js';
import type {AdmittedAgent} from '../../agent/index.js';
import type {HostSession} from '../../host/index.js';
import type {AttemptContext} from './attempt-context.js';

/** What the hidden list is made from: the attempt's plan, evidence, runtime folder and the options that name files. */
export type HiddenInputs = Pick<AttemptContext, 'plan' | 'dir' | 'runtime'> & {options: Pick<AttemptContext['options'], 'planPath' | 'candidateCartridge' | 'secretFiles'>};

/** The installation's folders of task sources, graders, expected data and reference answers (example scripts and cartridges, test fixtures), as sources and compiled. */
const suiteFolders = ['tasks', 'examples', 'test'];

/**
 * What a sandboxed command of this attempt must not see (each becomes an empty directory or an empty file): the
 * evidence, the plan, the runtime root with every task's state, the suite's graders and expected data, a cartridge's
 * folder, a controller's files, the secrets named to the attempt, home and the user's state folder (its keys). A
 * task's own workspace (and a host's state) is bound back in, writable.
 */
export function hiddenFromTasks(attempt: HiddenInputs): string[] {
	const {plan, options} = attempt;
	return unique([
		resolve(attempt.dir),
		resolve(options.planPath),
		...runtimeRoot(attempt.runtime.dir),
		...suiteFolders.flatMap(folder => [join(installRoot, folder), distPath(folder)]),
		// The bundle's chunks that inline those folders' code.
		...suiteChunkPaths(),
		...[plan.cartridge?.dir, options.candidateCartridge].filter(isGiven).map(dir => resolve(dir)),
		...controllerFiles(attempt.plan),
		...harborFolders(plan),
		...(options.secretFiles ?? []).map(file => resolve(file)),
		...userFolders(),
		// The seal's key store too (it may sit outside home, e.g. HLAB_STATE_DIR): the key is never in a task's view.
		keyStoreDir(),
	]);
}

/**
 * The attempt's runtime folder and the root it sits in, with other attempts' folders beside it; not the root when
 * the installation or this Node lives under it (HLAB_RUNTIME_ROOT may name any folder), since commands run with them.
 */
function runtimeRoot(dir: string | null): string[] {
	if (dir === null) return [];
	const root = dirname(dir);
	const needed = [installRoot, realpathSync(process.execPath)].some(path => !relative(root, path).startsWith('..'));
	return needed ? [dir] : [dir, root];
}

/** A controller's pinned files (its script, its data); not its interpreter, which commands may run too. */
function controllerFiles(plan: HiddenInputs['plan']): string[] {
	if (plan.controller === null) return [];
	const interpreter = new Set([plan.controller.identity.command[0], process.execPath].filter(isGiven).map(path => resolve(path)));
	return Object.keys(plan.controller.identity.files).map(file => resolve(file)).filter(file => !interpreter.has(file));
}

/**
 * A Harbor plan's task folders whole (their tests/, the verifier, and solution/ are never the agent's), and the folder
 * they were frozen from unless the installation or this Node lives in it, since commands run with them.
 */
function harborFolders(plan: HiddenInputs['plan']): string[] {
	if (plan.harbor === undefined) return [];
	const holdsRuntime = [installRoot, realpathSync(process.execPath)].some(path => !relative(plan.harbor!.dir, path).startsWith('..'));
	return [...(holdsRuntime ? [] : [plan.harbor.dir]), ...plan.harbor.tasks.map(task => task.dir)].map(dir => resolve(dir));
}

/** A Harbor plan shows the task's workspace (the first writable path) at the WORKDIR too, as the container would. */
function workdirMount(plan: HiddenInputs['plan'], writable: string[]): Pick<Sandbox, 'mounts'> {
	if (plan.harbor === undefined || writable[0] === undefined) return {};
	return {mounts: [{source: writable[0], target: plan.harbor.workdir, writable: true}]};
}

/** Home (where the user's keys and credentials live) and the state folder where harness-lab keeps its own keys. */
function userFolders(): string[] {
	const home = [homedir(), process.env.HOME].filter(isGiven).filter(dir => dir !== '/');
	const state = process.env.XDG_STATE_HOME ? [join(process.env.XDG_STATE_HOME, 'harness-lab')] : [];
	return [...home, ...state, ...home.map(dir => join(dir, '.local', 'state', 'harness-lab'))];
}

function isGiven(value: string | null | undefined): value is string {
	return value !== undefined && value !== null && value !== '';
}

function unique(paths: string[]): string[] {
	return [...new Set(paths)];
}

/**
 * A sandboxed plan's tool commands find their sandbox in the environment the worker threads copy when they start,
 * so it is published before any thread exists; an unsandboxed plan publishes nothing.
 */
export function publishAttemptSandbox(attempt: HiddenInputs): void {
	const workdir = attempt.plan.harbor === undefined ? {} : {workdir: attempt.plan.harbor.workdir};
	publishSandbox(attempt.plan.sandbox === undefined ? null : {hidden: hiddenFromTasks(attempt), network: false, ...workdir});
}

/**
 * A host candidate runs sandboxed too: its workspace and state writable, the same paths and the host folder hidden,
 * no network but its task's metering proxy (runHostTask bridges that one port in; the host's own tool commands run
 * inside its sandbox and have the same).
 */
export function hostSandbox(attempt: HiddenInputs, host: HostSession): ((writable: string[]) => Sandbox) | undefined {
	if (attempt.plan.sandbox === undefined) return undefined;
	const hidden = [...hiddenFromTasks(attempt), resolve(host.dir)];
	// The executable's folder (a build is the whole folder) stays readable even under the private /tmp.
	const readable = [...new Set([dirname(host.identity.path), dirname(host.identity.launched)])];
	return writable => ({writable, readable, hidden, network: false, ...workdirMount(attempt.plan, writable)});
}

/**
 * A third-party agent runs sandboxed as a host does: the same paths hidden, its workspace and its task's `$HOME` and
 * TMPDIR writable, its installed package and its spec's folder (a command's script) readable even under home or the
 * suite's folders, and no network but its task's metering proxy (runAgentTask bridges that one port in).
 */
export function agentSandbox(attempt: HiddenInputs, agent: AdmittedAgent): ((writable: string[]) => Sandbox) | undefined {
	if (attempt.plan.sandbox === undefined) return undefined;
	const hidden = hiddenFromTasks(attempt);
	const readable = [agent.packageDir, agent.loaded.dir].filter(isGiven).map(dir => resolve(dir));
	return writable => ({writable, readable, hidden, network: false, ...workdirMount(attempt.plan, writable)});
}

/**
 * The sandboxed task runner's sandbox: the same paths hidden (and a cartridge's folder, whose cases are the scorer's),
 * the attempt's runtime folder writable, since every task's workspace and state live there. The network stays, as a
 * host's does, so the runner reaches its tasks' metering proxies on loopback; its tool commands get their own sandbox.
 * Null for an unsandboxed plan; a problem when the tasks' state would live inside the hidden evidence directory.
 */
export function runnerSandbox(attempt: HiddenInputs, cartridgeDir: string | null): Sandbox | {problem: string} | null {
	const runtimeDir = attempt.runtime.dir;
	if (attempt.plan.sandbox === undefined) return null;
	if (runtimeDir === null) return {problem: 'the sandboxed task runner needs a runtime root outside the evidence directory (HLAB_RUNTIME_ROOT=evidence keeps the tasks\' state inside it)'};
	// The runtime folder is bound whole, writable: hiding it too would remount it read-only over the bind.
	const hidden = [...hiddenFromTasks(attempt).filter(path => path !== resolve(runtimeDir)), ...(cartridgeDir === null ? [] : [resolve(cartridgeDir)])];
	// The runner is this installation's code: readable even when it lives under the private /tmp (its hidden parts still win).
	return {writable: [runtimeDir], readable: [installRoot], hidden: unique(hidden), network: true};
}

/** Variables that carry a credential by their name. */
const secretName = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;
/** harness-lab's own variables the runner needs: the sandbox, memory and CPU limits its commands take, the containment backend. */
const runnerVariables = new Set([sandboxVariable, memoryLimitVariable, cpuLimitVariable, containmentVariable]);

/**
 * The runner's whole environment: the supervisor's, minus the provider's key variable, anything named like a
 * credential and every `HLAB_*` variable but the markers (`KEY=1`, by which leaks are found) and the runner's own.
 */
export function runnerEnvironment(keyVariable: string | null, env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
	const kept: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(env)) {
		if (name === keyVariable || secretName.test(name)) continue;
		if (name.startsWith('HLAB_') && value !== '1' && !runnerVariables.has(name)) continue;
		kept[name] = value;
	}
	return kept;
}
