import type {Plan} from '../../plan/plan-schema.js';

export interface FrozenOrderInput<T> {
	/** Entries 0..count-1 of the denominator. */
	count: number;
	/** How many run at once. */
	lanes: number;
	/** Stops the lanes from taking further entries; what it kept from starting gets `notStarted`. */
	signal?: AbortSignal;
	run(index: number): Promise<T>;
	notStarted(index: number): T;
}

/** The attempt's one scheduler: each free lane takes the next entry in frozen order; results are placed by index whatever the completion order. */
export async function runInFrozenOrder<T>(input: FrozenOrderInput<T>): Promise<T[]> {
	const results = new Map<number, T>();
	let next = 0;
	const lane = async (): Promise<void> => {
		while (input.signal?.aborted !== true && next < input.count) {
			const index = next++;
			results.set(index, await input.run(index));
		}
	};
	await Promise.all(Array.from({length: Math.min(input.lanes, input.count)}, lane));
	return Array.from({length: input.count}, (_, index) => (results.has(index) ? results.get(index)! : input.notStarted(index)));
}

/** The frozen concurrency, never more lanes than tasks. */
export function lanesOf(plan: Plan): number {
	return Math.min(plan.policy.concurrency, plan.task_ids.length);
}
