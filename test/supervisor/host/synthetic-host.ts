import {chmod, writeFile} from 'node:fs/promises';
import {join} from 'node:path';

/**
 * Writes a small host executable speaking host-worker protocol v1 (a node script with an absolute shebang).
 * `behaviour` is the body of `async function behave(request, self)`; it returns the response object to print
 * or exits on its own. `self` is {path, digest}, what a truthful worker reports.
 */
export async function writeSyntheticHost(dir: string, name: string, behaviour: string): Promise<string> {
	const path = join(dir, `${name}.mjs`);
	await writeFile(path, `#!${process.execPath}
import {createHash} from 'node:crypto';
import {readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {spawn} from 'node:child_process';
const path = realpathSync(process.argv[1]);
const self = {path, digest: 'sha256:' + createHash('sha256').update(readFileSync(path)).digest('hex')};
if (process.argv[2] !== 'host-worker') { process.stderr.write('usage: host-worker\\n'); process.exit(2); }
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const usage = {turns: 1, input_tokens: 10, output_tokens: 5, cache_read_tokens: 0, cache_write_tokens: 0, total_tokens: 15, cost_usd: null};
const done = {status: 'done', reason: null, message: null, steps: 1, usage, final_text: 'done', stopped_by: null};
async function behave(request, self) {
${behaviour}
}
const response = await behave(request, self);
process.stdout.write(JSON.stringify(response) + '\\n');
`);
	await chmod(path, 0o755);
	return path;
}

/** The body of a truthful worker that writes a file into the workspace and answers `done`. */
export const truthful = `
	writeFileSync(join(request.workspace, 'answer.txt'), request.task.id);
	return {version: 1, binary: self, task_id: request.task.id, outcome: done};
`;
