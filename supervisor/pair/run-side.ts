import {createWriteStream, type WriteStream} from 'node:fs';
import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';
import {digestBytes} from '../../files/digest.js';
import {writeJson} from '../../files/write-json.js';
import {runInGroup, type ProcessRecord} from '../../process/index.js';
import type {PairFile} from './pair-file.js';
import type {SideName, SideRecord} from './pair-record.js';
import {ReportLeaks, sideLeaks} from './side-leaks.js';
import {syncLedger} from './sync-ledger.js';

/** What a side's report must show to be compared; the format belongs to the executable that wrote it. */
const ReportView = z.object({plan_digest: z.string(), task_ids: z.array(z.string()), completion: z.string(), passed: z.boolean(), leak_audit: ReportLeaks}).loose();

export const sideOutputLimit = 64 * 1024 * 1024;
export const ledgerPollMs = 200;
/** A side told to stop is a supervisor ending its tasks and writing its report: it gets that long before SIGKILL. */
const sideStopGraceMs = 30_000;

export interface SideRun {
	side: SideName;
	argv: string[];
	pairDir: string;
	deadlineMs: number;
	signal: AbortSignal;
	urge?: AbortSignal;
	planDigest: string;
	taskIds: string[];
	pollMs?: number;
	syncLedger: boolean;
}

/**
 * Runs one side (`EXE eval ...`) as its own process group under the pair's wall-clock limit. While it runs, its
 * ledger is copied into pair.json as records appear, so finished tasks survive a crash of the side or of the
 * pair. Afterwards stdout, stderr and process.json stay in `<side>.process/`, and the side is judged comparable
 * only if its process ended by itself and its report is complete for this plan.
 */
export async function runSide(run: SideRun, file: PairFile): Promise<void> {
	const {side, pairDir} = run;
	const processDir = join(pairDir, `${side}.process`);
	await mkdir(processDir, {recursive: true});
	const stdout = createWriteStream(join(processDir, 'stdout.log'));
	const stderr = createWriteStream(join(processDir, 'stderr.log'));
	await file.update(record => {
		record.sides[side] = {...record.sides[side], state: 'running', argv: run.argv, stdout: `${side}.process/stdout.log`, stderr: `${side}.process/stderr.log`};
	});
	const ledger = join(pairDir, side, 'ledger.jsonl');
	const sync = async (): Promise<void> => {
		if (!run.syncLedger) return;
		const result = await syncLedger(ledger, side, file.record.tasks);
		const fresh = result.problems.filter(problem => !file.record.problems.includes(problem));
		if (result.changed || fresh.length > 0) await file.update(record => record.problems.push(...fresh));
	};
	let polling = false;
	const timer = setInterval(() => {
		if (polling) return;
		polling = true;
		sync().catch(() => undefined).finally(() => (polling = false));
	}, run.pollMs ?? ledgerPollMs);
	let record: ProcessRecord;
	try {
		record = (await runInGroup({
			argv: run.argv,
			cwd: pairDir,
			deadlineMs: run.deadlineMs,
			stdoutLimit: sideOutputLimit,
			stderrLimit: sideOutputLimit,
			stdout: {kind: 'stream', stream: stdout},
			stderr: {kind: 'stream', stream: stderr},
			signal: run.signal,
			...(run.urge === undefined ? {} : {urge: run.urge}),
			graceMs: sideStopGraceMs,
		})).record;
	} finally {
		clearInterval(timer);
		await Promise.all([closeStream(stdout), closeStream(stderr)]);
	}
	// The side's host record: pair.json cites it, so it is on disk first.
	await writeJson(join(processDir, 'process.json'), record, {durable: true});
	// The last records may have landed after the last poll.
	while (polling) await new Promise(resolve => setTimeout(resolve, 20));
	await sync();
	const judged = await judgeSide(run, record);
	await file.update(pair => {
		pair.sides[side] = {
			...pair.sides[side],
			state: 'ended',
			process: `${side}.process/process.json`,
			exit_code: record.exit_code,
			signal: record.signal,
			failure: record.failure,
			wall_ms: record.wall_ms,
			...judged,
		};
	});
}

async function judgeSide(run: SideRun, record: ProcessRecord): Promise<Pick<SideRecord, 'report' | 'comparable' | 'problems' | 'leaks'>> {
	const problems: string[] = [];
	if (record.failure !== null) problems.push(`the ${run.side} process did not end by itself: ${record.failure_message ?? record.failure}`);
	else if (record.signal !== null) problems.push(`the ${run.side} process was killed by ${record.signal}`);
	// `hlab eval` exits 0 when every task passed and 1 when some failed; anything else is a failed process.
	else if (record.exit_code !== 0 && record.exit_code !== 1) problems.push(`the ${run.side} process exited with status ${record.exit_code}`);
	const reportPath = join(run.side, 'report.json');
	let report: SideRecord['report'] = null;
	let reported: number | null = null;
	try {
		const bytes = await readFile(join(run.pairDir, reportPath));
		const view = ReportView.parse(JSON.parse(bytes.toString('utf8')));
		report = {path: reportPath, digest: digestBytes(bytes), completion: view.completion, passed: view.passed};
		reported = view.leak_audit?.leaked.length ?? null;
		if (view.completion !== 'finished') problems.push(`the ${run.side} report is ${view.completion}, not finished`);
		if (view.plan_digest !== run.planDigest) problems.push(`the ${run.side} report is for plan ${view.plan_digest}, not ${run.planDigest}`);
		if (JSON.stringify(view.task_ids) !== JSON.stringify(run.taskIds)) problems.push(`the ${run.side} report's denominator differs from the plan's`);
	} catch (error) {
		problems.push(`the ${run.side} report is missing or unreadable: ${(error as Error).message.split('\n')[0]}`);
	}
	return {report, comparable: problems.length === 0, problems, leaks: sideLeaks(run.side, record, reported)};
}

function closeStream(stream: WriteStream): Promise<void> {
	return new Promise(resolve => (stream.closed ? resolve() : stream.end(() => resolve())));
}
