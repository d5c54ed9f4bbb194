import {accessSync, constants, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, statSync} from 'node:fs';
import {isAbsolute, join} from 'node:path';
import {z} from 'zod';
import {moveTreeSparse} from './move-sparse.js';
import {writeJsonSync} from '../../files/write-json.js';
import {InputError} from '../input-error.js';

/**
 * `DIR/runtime-root.json`: where the attempt's runtime state (each task's state, session and workspace) lives until
 * its evidence is exported. Written durably before any task runs, so a recovery finds the state after a crash.
 */
export const RuntimeRootRecord = z.object({
	schema: z.literal('harness-lab/runtime-root@1'),
	/** The attempt's own folder under the runtime root; null: each task's state lives in its task folder (`runtime-state/`). */
	dir: z.string().nullable(),
	/** Where the choice came from: the variable or default that named the root, or `evidence` for the fallback. */
	source: z.enum(['HLAB_RUNTIME_ROOT', 'XDG_RUNTIME_DIR', '/dev/shm', 'evidence']),
	/** Whether the root is a tmpfs (memory), null when the file system could not be asked. */
	tmpfs: z.boolean().nullable(),
	/** Why a root tried before this one was not used. */
	skipped: z.array(z.string()),
});
export type RuntimeRootRecord = z.infer<typeof RuntimeRootRecord>;

export const runtimeRootFile = 'runtime-root.json';

export class RuntimeRootError extends InputError {
	readonly reason = 'runtime_root';
}

/** statfs(2)'s magic number for tmpfs. */
const tmpfsMagic = 0x01021994;

interface Candidate {
	source: RuntimeRootRecord['source'];
	root: string;
}

/**
 * Chooses the attempt's runtime root and creates its folder (mode 0700: another user must not read a task's state):
 * `HLAB_RUNTIME_ROOT` when set (`evidence` keeps the state in the task folders), else `$XDG_RUNTIME_DIR`, else the
 * shared-memory tmpfs, else the evidence directory. A root counts as usable when the folder can be made in it.
 * `shared` is the shared-memory tmpfs to try; a parameter so the fallback can be shown on a machine that has one.
 * A root tried by default with less than `minFreeBytes` free (one workspace limit; a container's 64 MiB /dev/shm) is
 * skipped for the next, so that a small tmpfs does not fail every task for want of space; one named is used as named.
 * `beforeMake` hears of each folder before it is made (the attempt records it), so no instant has a folder nobody names.
 */
export function chooseRuntimeRoot(attemptId: string, env: NodeJS.ProcessEnv = process.env, shared = '/dev/shm', minFreeBytes = 0, beforeMake: (planned: RuntimeRootRecord) => void = () => {}): RuntimeRootRecord {
	return RuntimeRootRecord.parse(chooseRoot(attemptId, env, shared, minFreeBytes, beforeMake));
}

/**
 * Refuses an unusable `HLAB_RUNTIME_ROOT` before the evidence directory exists, so bad input leaves nothing behind;
 * the folder itself is made only once the directory that names it is in place.
 */
export function checkRuntimeRootVariable(env: NodeJS.ProcessEnv = process.env): void {
	const explicit = env.HLAB_RUNTIME_ROOT;
	if (explicit === undefined || explicit === '' || explicit === 'evidence') return;
	const problem = unusableRoot(explicit);
	if (problem !== null) throw explicitRootError(explicit, problem);
}

function unusableRoot(root: string): string | null {
	if (!isAbsolute(root)) return 'not an absolute path';
	try {
		if (!statSync(root).isDirectory()) return 'ENOTDIR';
		accessSync(root, constants.W_OK | constants.X_OK);
		return null;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
	}
}

function explicitRootError(explicit: string, problem: string): RuntimeRootError {
	return new RuntimeRootError(`HLAB_RUNTIME_ROOT=${explicit} cannot hold the runtime state: ${problem} (set it to a writable folder, or to "evidence")`);
}

/** Durable and atomic: rewritten while the root is chosen (each folder named before it is made); a recovery trusts it to find (and then remove) the state on the tmpfs. */
export function recordRuntimeRoot(evidenceDir: string, record: RuntimeRootRecord): void {
	writeJsonSync(join(evidenceDir, runtimeRootFile), record, {atomic: true, durable: true});
}

/** Removes the attempt's folder under its runtime root, whatever it holds. */
export function dropRuntimeRoot(record: RuntimeRootRecord): void {
	if (record.dir !== null) rmSync(record.dir, {recursive: true, force: true});
}

function chooseRoot(attemptId: string, env: NodeJS.ProcessEnv, shared: string, minFreeBytes: number, beforeMake: (planned: RuntimeRootRecord) => void): RuntimeRootRecord {
	const explicit = env.HLAB_RUNTIME_ROOT;
	if (explicit === 'evidence') return {schema: 'harness-lab/runtime-root@1', dir: null, source: 'evidence', tmpfs: null, skipped: []};
	if (explicit !== undefined && explicit !== '') {
		const made = makeFolder({source: 'HLAB_RUNTIME_ROOT', root: explicit}, attemptId, [], beforeMake);
		if ('problem' in made) throw explicitRootError(explicit, made.problem);
		return made.record;
	}
	const candidates: Candidate[] = [
		...(env.XDG_RUNTIME_DIR ? [{source: 'XDG_RUNTIME_DIR' as const, root: env.XDG_RUNTIME_DIR}] : []),
		{source: '/dev/shm', root: shared},
	];
	const skipped: string[] = [];
	for (const candidate of candidates) {
		const free = freeBytes(candidate.root);
		if (free !== null && free < minFreeBytes) {
			skipped.push(`${candidate.source} (${candidate.root}): ${free} bytes free, less than one workspace limit (${minFreeBytes} bytes)`);
			continue;
		}
		const made = makeFolder(candidate, attemptId, skipped, beforeMake);
		if ('record' in made) return made.record;
		skipped.push(`${candidate.source} (${candidate.root}): ${made.problem}`);
	}
	return {schema: 'harness-lab/runtime-root@1', dir: null, source: 'evidence', tmpfs: null, skipped};
}

function makeFolder(candidate: Candidate, attemptId: string, skipped: string[], beforeMake: (planned: RuntimeRootRecord) => void): {record: RuntimeRootRecord} | {problem: string} {
	if (!isAbsolute(candidate.root)) return {problem: 'not an absolute path'};
	const dir = join(candidate.root, `hlab-${attemptId}`);
	beforeMake({schema: 'harness-lab/runtime-root@1', dir, source: candidate.source, tmpfs: null, skipped: [...skipped]});
	try {
		mkdirSync(dir, {mode: 0o700});
	} catch (error) {
		return {problem: (error as NodeJS.ErrnoException).code ?? (error as Error).message};
	}
	return {record: {schema: 'harness-lab/runtime-root@1', dir, source: candidate.source, tmpfs: isTmpfs(dir), skipped: [...skipped]}};
}

/** Bytes an unprivileged writer may still use on the root's file system; null when it cannot be asked (then making the folder says). */
function freeBytes(root: string): number | null {
	try {
		const info = statfsSync(root);
		return info.bavail * info.bsize;
	} catch {
		return null;
	}
}

function isTmpfs(dir: string): boolean | null {
	try {
		return statfsSync(dir).type === tmpfsMagic;
	} catch {
		return null;
	}
}

/** The attempt's runtime root as recorded, or null when the attempt has none (killed before choosing, or older). */
export function readRuntimeRoot(evidenceDir: string): RuntimeRootRecord | null {
	try {
		return RuntimeRootRecord.parse(JSON.parse(readFileSync(join(evidenceDir, runtimeRootFile), 'utf8')));
	} catch {
		return null;
	}
}

/** Where a task folder keeps runtime state: the fallback root, and where a failed export or a recovery puts it. */
export const keptRuntimeFolder = 'runtime-state';

export interface LeftRuntime {
	/** Task folders (`tasks/<name>`) that received runtime state left on the runtime root. */
	moved: string[];
	/** Each a sentence: state that could not be moved stays on the runtime root, named. */
	problems: string[];
}

/**
 * Moves whatever task state is left under the attempt's runtime root into its task folder (`tasks/<name>/runtime-state`)
 * and removes the root: at the attempt's close (a failed export) and at a recovery (a crash). Nothing is deleted
 * that was not first moved; what cannot be moved stays, named in `problems`.
 */
export async function exportLeftRuntime(evidenceDir: string): Promise<LeftRuntime> {
	const root = readRuntimeRoot(evidenceDir);
	const left: LeftRuntime = {moved: [], problems: []};
	if (root?.dir == null) return left;
	let names: string[];
	try {
		names = readdirSync(root.dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') left.problems.push(`the runtime root ${root.dir} could not be listed: ${(error as Error).message}`);
		return left;
	}
	for (const name of names) {
		const taskDir = join('tasks', name);
		try {
			mkdirSync(join(evidenceDir, taskDir), {recursive: true});
			// Holes kept: a crashed task's sparse file takes no more room in the evidence than it did on the tmpfs.
			await moveTreeSparse(join(root.dir, name), join(evidenceDir, taskDir, keptRuntimeFolder));
			left.moved.push(taskDir);
		} catch (error) {
			left.problems.push(`runtime state ${join(root.dir, name)} could not be moved into ${taskDir}: ${(error as Error).message}`);
		}
	}
	if (left.problems.length === 0) rmSync(root.dir, {recursive: true, force: true});
	return left;
}
