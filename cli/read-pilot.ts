import {readFile} from 'node:fs/promises';
import {Report} from '../supervisor/attempt/report/report-schema.js';
import {pilotOf, type Pilot} from '../supervisor/plan/pilot.js';
import {UsageError} from '../supervisor/input-error.js';

/** `--pilot REPORT`: a prior baseline report read as a pilot; a file that is not a report is bad input naming it. */
export async function readPilot(path: string): Promise<Pilot> {
	let json: unknown;
	try {
		json = JSON.parse(await readFile(path, 'utf8'));
	} catch (error) {
		throw new UsageError(`--pilot ${path}: cannot read it as JSON: ${(error as Error).message}`);
	}
	const report = Report.safeParse(json);
	if (!report.success) throw new UsageError(`--pilot ${path}: not a harness-lab/report@1`);
	return pilotOf(path, report.data.tasks);
}
