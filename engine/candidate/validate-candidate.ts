import {z} from 'zod';
import {EngineError} from '../engine-error.js';
import {pluginShapeProblems} from '../plugins/activate-plugin.js';
import {compileCandidate} from './compile-candidate.js';
import {importSnapshot} from './load-candidate.js';
import {typeCheckCandidate} from './type-check-candidate.js';
import type {CandidateSnapshot} from './snapshot.js';

export const ValidationCheck = z.object({
	name: z.enum(['compile', 'load', 'structure', 'types']),
	/** Null when the check could not be made (types, when no TypeScript compiler or Node types are at hand); the message says why. */
	passed: z.boolean().nullable(),
	message: z.string().nullable(),
});

/** The verdict of `hlab plugin validate`. Activation and readiness are checked when a task starts, not here. */
export const ValidationVerdict = z.object({
	schema: z.literal('harness-lab/plugin-validation@1'),
	file: z.string(),
	valid: z.boolean(),
	source_digest: z.string().nullable(),
	code_digest: z.string().nullable(),
	sdk_digest: z.string().nullable(),
	checks: z.array(ValidationCheck),
	errors: z.array(z.string()),
});
export type ValidationVerdict = z.infer<typeof ValidationVerdict>;

/** Checks that a candidate file compiles under the import rule, loads, default-exports a RuntimePlugin, and (when it can) type-checks. */
export async function validateCandidate(file: string): Promise<ValidationVerdict> {
	const checks: z.infer<typeof ValidationCheck>[] = [];
	const verdict = (snapshot: CandidateSnapshot | null): ValidationVerdict => {
		const errors = checks.filter(check => check.passed === false).map(check => `${check.name}: ${check.message}`);
		return {
			schema: 'harness-lab/plugin-validation@1',
			file,
			valid: errors.length === 0,
			source_digest: snapshot?.source_digest ?? null,
			code_digest: snapshot?.code_digest ?? null,
			sdk_digest: snapshot?.sdk_digest ?? null,
			checks,
			errors,
		};
	};
	let snapshot: CandidateSnapshot;
	try {
		snapshot = await compileCandidate(file);
		checks.push({name: 'compile', passed: true, message: null});
	} catch (error) {
		checks.push({name: 'compile', passed: false, message: error instanceof Error ? error.message : String(error)});
		return verdict(null);
	}
	let module: Record<string, unknown>;
	try {
		module = await importSnapshot(snapshot);
		checks.push({name: 'load', passed: true, message: null});
	} catch (error) {
		checks.push({name: 'load', passed: false, message: error instanceof EngineError ? error.message : String(error)});
		return verdict(snapshot);
	}
	const problems = pluginShapeProblems(module.default);
	checks.push({name: 'structure', passed: problems.length === 0, message: problems.length === 0 ? null : problems.join('; ')});
	const types = await typeCheckCandidate(file);
	checks.push({name: 'types', passed: types.notChecked === null ? types.problems.length === 0 : null, message: types.notChecked === null ? (types.problems.length === 0 ? null : types.problems.join('; ')) : `not checked: ${types.notChecked}`});
	return verdict(snapshot);
}
