import {describeIssues} from '../../controller-protocol/index.js';
import {hlabVersion} from './hlab-version.js';
import {Plan, planSchema} from './plan-schema.js';

/** A plan document as read from a file: the plan, or the one line that says why this hlab will not use it. */
export type ParsedPlan = {ok: true; plan: Plan} | {ok: false; problem: string};

const knownFields = new Set(Object.keys(Plan.shape));

/**
 * Parses a plan document strictly: a newer schema version and an unknown top-level field are each refused with their
 * own reason (zod would drop the field, and the digest, computed without it, would then blame an edit that never happened).
 */
export function parsePlan(json: unknown): ParsedPlan {
	const newer = newerSchema(json);
	if (newer !== null) return {ok: false, problem: `was written by a newer hlab (${newer}; this hlab ${hlabVersion} reads ${planSchema}): upgrade hlab to use it`};
	const unknown = unknownFields(json);
	if (unknown.length > 0) return {ok: false, problem: unknownFieldsProblem(json as Record<string, unknown>, unknown)};
	const parsed = Plan.safeParse(json);
	if (!parsed.success) return {ok: false, problem: `is not a ${planSchema} document: ${describeIssues(parsed.error)}`};
	return {ok: true, plan: parsed.data};
}

/** The plan's schema when it is a later version of ours (`harness-lab/plan@N`, N above ours), else null. */
function newerSchema(json: unknown): string | null {
	const schema = isRecord(json) ? json.schema : undefined;
	if (typeof schema !== 'string') return null;
	const version = versionOf(schema);
	return version !== null && version > (versionOf(planSchema) ?? 0) ? schema : null;
}

function versionOf(schema: string): number | null {
	const match = /^harness-lab\/plan@(\d+)$/.exec(schema);
	return match === null ? null : Number(match[1]);
}

function unknownFields(json: unknown): string[] {
	return isRecord(json) ? Object.keys(json).filter(key => !knownFields.has(key)) : [];
}

function unknownFieldsProblem(json: Record<string, unknown>, unknown: string[]): string {
	const fields = `${unknown.length === 1 ? 'an unknown field' : 'unknown fields'} ${unknown.map(key => JSON.stringify(key)).join(', ')}`;
	const version = typeof json.hlab_version === 'string' ? json.hlab_version : null;
	if (version !== null && newerVersion(version, hlabVersion)) return `has ${fields}: it was written by a newer hlab (${version}; this is ${hlabVersion}): upgrade hlab to use it`;
	return `has ${fields} (not part of ${planSchema}; hlab writes plans, nobody edits them)`;
}

/** Whether dotted version a is later than b (numeric parts; anything after them is ignored). */
function newerVersion(a: string, b: string): boolean {
	const parts = (version: string) => version.split(/[.+-]/).slice(0, 3).map(part => Number.parseInt(part, 10) || 0);
	const [left, right] = [parts(a), parts(b)];
	for (let index = 0; index < 3; index++) {
		if ((left[index] ?? 0) !== (right[index] ?? 0)) return (left[index] ?? 0) > (right[index] ?? 0);
	}
	return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
