import {existsSync} from 'node:fs';
import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import {runAttempt, type AttemptOptions} from '../../supervisor/attempt/index.js';
import {calibrationOf, calibrationSummary} from '../../supervisor/compare/calibration.js';
import {UsageError} from '../../supervisor/input-error.js';
import {writeJson} from '../../files/write-json.js';
import {failedExit, okExit} from '../exit-codes.js';
import {printResult} from './print-result.js';

export interface CalibrateFlags {
	plan: string;
	artifacts: string;
	json?: boolean;
	/** Flags a calibration cannot take: it runs the plan's own baseline, here. */
	others: string[];
}

/**
 * `hlab eval --plan P --calibrate --artifacts DIR`: the baseline twice under the plan (DIR/a, DIR/b), one after the
 * other as two ordinary attempts, and the spread between them in DIR/calibration.json.
 */
export async function calibrate(flags: CalibrateFlags, options: Pick<AttemptOptions, 'signal' | 'threads' | 'keepWorkdirs' | 'configPath'>): Promise<number> {
	if (flags.others.length > 0) throw new UsageError(`--calibrate runs the plan's own baseline twice; it takes no ${flags.others.join(', ')}`);
	if (existsSync(join(flags.artifacts, 'calibration.json'))) throw new UsageError(`--calibrate: ${flags.artifacts} already holds a calibration`);
	await mkdir(flags.artifacts, {recursive: true});
	const runs = [];
	for (const name of ['a', 'b']) {
		const {dir, report} = await runAttempt({
			...options, planPath: flags.plan, artifacts: join(flags.artifacts, name), candidatePath: null, candidateHost: null, candidateCartridge: null, agentSpec: null,
			side: 'baseline', quiet: flags.json === true,
		});
		runs.push({dir, report});
	}
	const [a, b] = runs as [typeof runs[0], typeof runs[0]];
	const calibration = calibrationOf(a, b);
	const path = join(flags.artifacts, 'calibration.json');
	await writeJson(path, calibration);
	printResult(flags, calibrationSummary(path, calibration), {calibration: path, ...calibration});
	// Like an attempt: a run that did not pass every task is no clean measure of the noise, though it is written.
	return a.report.passed && b.report.passed ? okExit : failedExit;
}
