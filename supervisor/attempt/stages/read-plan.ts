import {readFile} from 'node:fs/promises';
import {Plan} from '../../plan/plan-schema.js';
import {InputError} from '../../input-error.js';
import {describeIssues} from '../../../controller-protocol/index.js';

export class PlanFileError extends InputError {
	readonly reason = 'plan_invalid';
}

/** Reads a plan's exact bytes and its parsed form; an unreadable or malformed plan is bad input. */
export async function readPlanFile(path: string): Promise<{bytes: Buffer; plan: Plan}> {
	let bytes: Buffer;
	try {
		bytes = await readFile(path);
	} catch (error) {
		throw new PlanFileError(`cannot read plan ${path}: ${(error as Error).message}`);
	}
	let json: unknown;
	try {
		json = JSON.parse(bytes.toString('utf8'));
	} catch (error) {
		throw new PlanFileError(`plan ${path} is not JSON: ${(error as Error).message}`);
	}
	const parsed = Plan.safeParse(json);
	if (!parsed.success) throw new PlanFileError(`plan ${path} is not a harness-lab/plan@1 document: ${describeIssues(parsed.error)}`);
	return {bytes, plan: parsed.data};
}
