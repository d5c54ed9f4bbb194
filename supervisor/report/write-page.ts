import {writeBytes} from '../../files/write-json.js';
import {InputError} from '../input-error.js';

export class ReportPageExistsError extends InputError {
	readonly reason = 'report_exists';
}

/** Writes the page (whole, or as pieces made while it is written) exclusively and durably: an earlier page is never overwritten. */
export async function writeReportPage(path: string, html: string | AsyncIterable<string>): Promise<void> {
	try {
		await writeBytes(path, html, {exclusive: true, durable: true});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ReportPageExistsError(`report page ${path} already exists; choose another --out`);
		throw error;
	}
}
