/** Every mode prints either its human summary or, with --json, one JSON document. */
export function printResult(flags: {json?: boolean}, human: string, json: unknown): void {
	process.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : `${human}\n`);
}
