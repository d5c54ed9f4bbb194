import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {isDeepStrictEqual} from 'node:util';
import {canonicalJson} from '../../files/canonical-json.js';
import {readAttemptRecord, totalsOf, verifyAttemptLedger, type VerifiedLedger} from '../attempt/read-evidence.js';
import {TaskResult, type LedgerRecord, type Report} from '../attempt/report/report-schema.js';
import {keyStoreDir} from '../evidence/seal/index.js';

/** One thing that holds or does not about an attempt's evidence, named by what was checked. */
export interface EvidenceCheck {
	check: 'seal' | 'ledger' | 'report';
	holds: boolean;
	message: string;
}

export interface AttemptEvidence {
	seal: VerifiedLedger['seal'];
	checks: EvidenceCheck[];
}

/** The fields of a task's result that a report must state exactly as its sealed record does. */
const crossChecked = ['status', 'reason', 'usage', 'wall_ms', 'grade', 'evidence'] as const;

/**
 * An attempt's evidence end to end: its ledger's seal and chain, the files each record sealed, and (when given) a
 * report.json that must agree, entry by entry and field by field, with the sealed ledger and every result.json.
 */
export async function verifyEvidence(dir: string, report: Report | null): Promise<AttemptEvidence> {
	const attempt = await readAttemptRecord(dir);
	const ledger = await verifyAttemptLedger(dir, attempt);
	const checks: EvidenceCheck[] = [sealCheck(ledger), ...ledgerChecks(ledger)];
	if (report !== null) {
		const problems = [
			...(attempt !== null && attempt.attempt_id !== report.attempt_id ? [`report.json names attempt ${report.attempt_id}, attempt.json ${attempt.attempt_id}`] : []),
			...crossCheck(dir, report, ledger),
		];
		checks.push(...problems.map(message => ({check: 'report' as const, holds: false, message})));
		if (problems.length === 0) checks.push({check: 'report', holds: true, message: `report.json agrees with the sealed ledger and every result.json on ${report.tasks.length} entries`});
	}
	return {seal: ledger.seal, checks};
}

function sealCheck(ledger: VerifiedLedger): EvidenceCheck {
	if (ledger.seal === 'sealed') return {check: 'seal', holds: true, message: `sealed with the attempt's key from ${keyStoreDir()}`};
	if (ledger.seal === 'unsealed') return {check: 'seal', holds: false, message: 'unsealed: the ledger was written before the seal, and nothing vouches for its records'};
	return {check: 'seal', holds: false, message: ledger.problems[0]!};
}

function ledgerChecks(ledger: VerifiedLedger): EvidenceCheck[] {
	if (ledger.seal === 'no_key') return [];
	const problems = ledger.problems.map(message => ({check: 'ledger' as const, holds: false, message}));
	if (problems.length > 0) return problems;
	const torn = ledger.torn.length > 0 ? `; line ${ledger.torn[0]} is torn (a crash while it was written)` : '';
	const verified = ledger.seal === 'sealed' ? ', every MAC verifies over the one before it and every sealed file is unchanged' : '';
	return [{check: 'ledger', holds: true, message: `${ledger.records} record(s), one per entry${verified}${torn}`}];
}

/**
 * Every place where report.json disagrees with the sealed ledger or a result.json, naming the entry and the field.
 * Entry by entry in frozen order, each result.json read only for its entry: ten thousand results are never held twice.
 */
function crossCheck(dir: string, report: Report, ledger: VerifiedLedger): string[] {
	const problems = report.tasks.flatMap((task, index) => entryProblems(task, index, ledger, citedResult(dir, ledger.trusted.get(index))));
	const totals = totalsOf(report.tasks);
	for (const [field, value] of Object.entries(totals)) {
		const stated = report.totals[field as keyof typeof totals];
		if (stated !== value) problems.push(`totals: field ${field}: report.json says ${shown(stated)}, its entries add up to ${shown(value)}`);
	}
	if (report.passed && totals.failed > 0) problems.push(`passed: report.json says the attempt passed, but ${totals.failed} entr${totals.failed === 1 ? 'y' : 'ies'} failed`);
	return problems;
}

/**
 * A trusted record's result.json as it is on disk now: null when it cannot be read as a result, undefined when none is
 * cited. Read synchronously: ten thousand small reads cost several times more CPU through the thread pool.
 */
function citedResult(dir: string, record: LedgerRecord | undefined): TaskResult | null | undefined {
	const rel = record?.result.evidence.result;
	if (rel === undefined) return undefined;
	try {
		const read = TaskResult.safeParse(JSON.parse(readFileSync(join(dir, rel), 'utf8')));
		return read.success ? read.data : null;
	} catch {
		return null;
	}
}

function entryProblems(task: TaskResult, index: number, ledger: VerifiedLedger, cited: TaskResult | null | undefined): string[] {
	const entry = `entry ${task.task_id}`;
	const record = ledger.trusted.get(index)?.result;
	if (record === undefined) {
		// An entry the ledger does not vouch for may only be stated failed: as `evidence` when a record of it was refused.
		if (ledger.distrusted.has(index) && (task.status !== 'failed' || task.reason !== 'evidence')) return [`${entry}: field status: report.json says ${task.status} (${shown(task.reason)}), but its ledger record is not trusted`];
		if (task.status === 'passed') return [`${entry}: field status: report.json says passed, but the sealed ledger holds no record of it`];
		return [];
	}
	const problems: string[] = [];
	if (record.task_id !== task.task_id) problems.push(`${entry}: field task_id: report.json says ${task.task_id}, the sealed ledger ${record.task_id}`);
	for (const field of crossChecked) {
		if (!same(task[field], record[field])) problems.push(`${entry}: field ${field}: report.json says ${shown(task[field])}, the sealed ledger ${shown(record[field])}`);
	}
	if (record.evidence.result === undefined) return problems;
	const onDisk = cited ?? null;
	if (onDisk === null) return [...problems, `${entry}: ${record.evidence.result} cannot be read as a task result`];
	for (const field of crossChecked) {
		if (!same(onDisk[field], record[field])) problems.push(`${entry}: field ${field}: ${record.evidence.result} says ${shown(onDisk[field])}, the sealed ledger ${shown(record[field])}`);
	}
	return problems;
}

function same(a: unknown, b: unknown): boolean {
	// Equal values in the same key order are the common case, and need no canonical text.
	return isDeepStrictEqual(a ?? null, b ?? null) || canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

function shown(value: unknown): string {
	const text = canonicalJson(value ?? null);
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
