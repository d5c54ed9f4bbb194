import type {ProcessRecord} from './process-record.js';

/** One line naming each process that outlived the command and had to be ended, and the backend that found it. */
export function describeLeaks(record: ProcessRecord, what = 'the command'): string {
	const names = record.leaks.map(pid => {
		const comm = record.killed.find(entry => entry.pid === pid)?.comm;
		return comm ? `${pid} (${comm})` : `${pid}`;
	});
	return `ended ${record.leaks.length} process(es) that outlived ${what} [${record.containment}]: ${names.join(', ')}`;
}
