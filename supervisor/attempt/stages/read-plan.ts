import {readFile} from 'node:fs/promises';
import type {Plan} from '../../plan/plan-schema.js';
import {parsePlan} from '../../plan/parse-plan.js';
import {InputError} from '../../input-error.js';

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
	const parsed = parsePlan(json);
	if (!parsed.ok) throw new PlanFileError(`plan ${path} ${parsed.problem}`);
	return {bytes, plan: parsed.plan};
}
