import {terminalText} from '../../process/terminal-text.js';

/** Every mode prints either its human summary (what came from outside escaped for the terminal) or, with --json, one JSON document. */
export function printResult(flags: {json?: boolean}, human: string, json: unknown): void {
	process.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : `${terminalText(human)}\n`);
}
