import type {ReferenceScript} from '../reference/reference-script.js';
import {isToolError} from '../reference/observe.js';

/** Format 2 from format 1, following MIGRATION.md. */
function migrate(v1: Record<string, unknown>): Record<string, unknown> {
	const [host, port] = String(v1.listen).split(':');
	return {
		version: 2,
		name: v1.name,
		server: {host, port: Number(port), timeout_ms: Number(v1.timeout) * 1000},
		max_retries: v1.retries,
		database: {host: v1.db_host, port: v1.db_port, name: v1.db_name},
		features: String(v1.features).split(',').map(name => name.trim()).filter(name => name !== ''),
		log_level: v1.debug === true ? 'debug' : 'info',
	};
}

/** Reads the rules and the old file, writes the new one from what it read, then reads the result twice. */
export const reference: ReferenceScript = function* () {
	yield {tool: 'list_files', args: {path: '.'}};
	yield {tool: 'read_file', args: {path: 'MIGRATION.md'}};
	const text = yield {tool: 'read_file', args: {path: 'config/service.v1.json'}};
	let v1: Record<string, unknown>;
	try {
		v1 = JSON.parse(text) as Record<string, unknown>;
	} catch {
		return isToolError(text) ? 'config/service.v1.json could not be read.' : 'config/service.v1.json is not valid JSON.';
	}
	const v2 = `${JSON.stringify(migrate(v1), null, 2)}\n`;
	yield {tool: 'write_file', args: {path: 'config/service.v2.json', content: v2}, note: 'Writing the format 2 file.'};
	const check = yield {tool: 'read_file', args: {path: 'config/service.v2.json'}, note: 'Checking the result.'};
	if (check !== v2) return 'config/service.v2.json does not read back as written.';
	// A second identical read: redundant on purpose, so a candidate has something real to save.
	yield {tool: 'read_file', args: {path: 'config/service.v2.json'}};
	return 'Wrote config/service.v2.json in format 2; config/service.v1.json is unchanged.';
};
