import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';

/** opencode's log folder under its `$HOME`: it logs every failed request there, also the retried ones its stdout never shows. */
const logDir = '.local/share/opencode/log';

/** The error of the main loop's last failed request when nothing came after it in the log (it was still retrying), else null. */
export function retryingError(home: string): string | null {
	const lines = logLines(home);
	const last = lines.findLastIndex(line => line.includes('message="stream error"') && line.includes('small=false'));
	if (last === -1 || lines.slice(last + 1).some(line => line.includes('message="stream"') || line.includes('message=stream '))) return null;
	return /error\.error="([^"]*)"/.exec(lines[last]!)?.[1] ?? 'a failed request';
}

function logLines(home: string): string[] {
	try {
		const dir = join(home, logDir);
		return readdirSync(dir).filter(name => name.endsWith('.log')).sort().flatMap(name => readFileSync(join(dir, name), 'utf8').split('\n'));
	} catch {
		return [];
	}
}
