import {readFile} from 'node:fs/promises';
import {resolve} from 'node:path';
import {ControllerIdentity, describeIssues, type ControllerTask} from '../../controller-protocol/index.js';
import {createControllerClient, verifyIdentityFiles} from '../controller/index.js';
import {digestJson} from '../../files/digest.js';
import type {Plan, PlanController} from './plan-schema.js';
import {InputError} from '../input-error.js';

export class ControllerFreezeError extends InputError {
	readonly reason = 'controller';
}

export interface FrozenController {
	controller: PlanController;
	tasks: Plan['tasks'];
	/** The tasks as the controller gave them, prompts included: what freeze checks the provider can play. */
	sourceTasks: ControllerTask[];
}

/** Names every pinned controller file whose bytes changed or vanished. */
export async function checkControllerFiles(identity: ControllerIdentity): Promise<string[]> {
	return (await verifyIdentityFiles(identity)).map(mismatch => `controller: ${mismatch.message}`);
}

/** Reads and checks a controller identity file. */
export async function readControllerIdentity(path: string): Promise<ControllerIdentity> {
	let json: unknown;
	try {
		json = JSON.parse(await readFile(resolve(path), 'utf8'));
	} catch (error) {
		throw new ControllerFreezeError(`cannot read controller identity ${path}: ${(error as Error).message}`);
	}
	const parsed = ControllerIdentity.safeParse(json);
	if (!parsed.success) throw new ControllerFreezeError(`controller identity ${path} is invalid: ${describeIssues(parsed.error)}`);
	return parsed.data;
}

/** Pins the controller, asks it for its tasks and schedule once, and freezes both into the plan. */
export async function freezeController(path: string): Promise<FrozenController> {
	const identity = await readControllerIdentity(path);
	const changed = await checkControllerFiles(identity);
	if (changed.length > 0) throw new ControllerFreezeError(changed.join('; '));
	const client = createControllerClient({identity});
	const tasks = await client.call('tasks', {});
	if (!tasks.ok) throw new ControllerFreezeError(`controller tasks failed (${tasks.error.reason}): ${tasks.error.message}`);
	const ids = tasks.value.tasks.map(task => task.id);
	const schedule = await client.call('schedule', {task_ids: ids});
	if (!schedule.ok) throw new ControllerFreezeError(`controller schedule failed (${schedule.error.reason}): ${schedule.error.message}`);
	return {
		controller: {
			identity,
			identity_digest: digestJson(identity),
			tasks: tasks.value,
			schedule: {order: schedule.value.order, concurrency: schedule.value.concurrency},
		},
		tasks: tasks.value.tasks.map(task => ({id: task.id, title: task.id, tools: []})),
		sourceTasks: tasks.value.tasks,
	};
}
