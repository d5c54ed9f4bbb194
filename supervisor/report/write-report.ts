import {loadReportInput, type ReportPaths} from './load-report-input.js';
import {renderReportPage} from './render-page.js';
import {writeReportPage} from './write-page.js';

/** The one call a command needs: read the inputs, render the page, write it exclusively to `output`. */
export async function writeReport(paths: ReportPaths, output: string): Promise<void> {
	await writeReportPage(output, renderReportPage(await loadReportInput(paths)));
}
