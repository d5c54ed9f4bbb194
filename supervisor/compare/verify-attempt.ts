import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {Report} from '../attempt/report/report-schema.js';
import {readPlanFile} from '../attempt/read-evidence.js';
import {computePlanDigest} from '../plan/plan-digest.js';
import {InputError} from '../input-error.js';
import {describeIssues} from '../../controller-protocol/index.js';
import {verifyEvidence, type EvidenceCheck} from './verify-evidence.js';

export class VerifyInputError extends InputError {
	readonly reason = 'not_an_attempt';
}

/** What `hlab verify` checked of one attempt: every check, holding or not. */
export interface AttemptVerification {
	dir: string;
	checks: Array<{check: 'plan' | EvidenceCheck['check']; holds: boolean; message: string}>;
	holds: boolean;
}

/** One attempt's evidence end to end: its plan, its sealed ledger and the files it seals, and its report against both. */
export async function verifyAttempt(path: string): Promise<AttemptVerification> {
	const dir = resolve(path);
	const {plan} = await readPlanFile(join(dir, 'plan.json')).catch((error: Error) => {
		throw new VerifyInputError(`${dir} is not an attempt's evidence directory: ${error.message}`);
	});
	const computed = computePlanDigest(plan);
	const checks: AttemptVerification['checks'] = [computed === plan.plan_digest
		? {check: 'plan', holds: true, message: `plan.json holds its digest ${plan.plan_digest}`}
		: {check: 'plan', holds: false, message: `plan.json was edited (recorded digest ${plan.plan_digest}, contents give ${computed})`}];
	const report = await readReport(dir);
	const evidence = await verifyEvidence(dir, report.report);
	checks.push(...evidence.checks);
	if (report.problem !== null) checks.push({check: 'report', holds: false, message: report.problem});
	return {dir, checks, holds: checks.every(check => check.holds)};
}

async function readReport(dir: string): Promise<{report: Report | null; problem: string | null}> {
	const path = join(dir, 'report.json');
	if (!existsSync(path)) return {report: null, problem: 'no report.json: the attempt did not finish (hlab eval --recover rebuilds it from the sealed ledger)'};
	try {
		const parsed = Report.safeParse(JSON.parse(await readFile(path, 'utf8')));
		return parsed.success ? {report: parsed.data, problem: null} : {report: null, problem: `report.json is not a valid harness-lab/report@1 (${describeIssues(parsed.error)})`};
	} catch (error) {
		return {report: null, problem: `report.json cannot be read: ${(error as Error).message}`};
	}
}

/** One line per check: what holds, and what does not. */
export function verificationSummary(verification: AttemptVerification): string {
	const lines = verification.checks.map(check => `${check.holds ? 'ok  ' : 'FAIL'}  ${check.check}: ${check.message}`);
	const verdict = verification.holds ? 'every check holds' : `${verification.checks.filter(check => !check.holds).length} check(s) do not hold`;
	return `${lines.join('\n')}\n${verification.dir}: ${verdict}\n`;
}
