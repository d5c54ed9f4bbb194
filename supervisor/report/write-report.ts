import {dirname} from 'node:path';
import {loadReportInput, type ReportPaths} from './load-report-input.js';
import {reportPagePieces} from './render-page.js';
import {loadTaskEvidence} from './task-evidence.js';
import {writeReportPage} from './write-page.js';

/** The one call a command needs: read the reports, then write the page exclusively to `output`, each task's evidence read as its turn comes. */
export async function writeReport(paths: ReportPaths, output: string): Promise<void> {
	const input = await loadReportInput(paths, {evidence: false});
	const evidenceOf = (side: number, index: number) => {
		const {report_path: path, report} = input.sides[side]!;
		return loadTaskEvidence(dirname(path), report.tasks[index]!);
	};
	await writeReportPage(output, reportPagePieces(input, evidenceOf));
}
