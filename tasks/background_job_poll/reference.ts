import type {ReferenceScript} from '../reference/reference-script.js';
import {commandResult} from '../reference/observe.js';

/** The same command every time, so that while the job runs the observations are identical. */
const poll = 'sleep 0.2; cat out/index.json 2>/dev/null || echo pending';
const maxPolls = 40;

/** Starts the job in the background, polls until its file appears, then writes the summary from what it read. */
export const reference: ReferenceScript = function* () {
	yield {tool: 'list_files', args: {path: '.'}};
	const started = yield {tool: 'run_command', args: {command: 'node tools/build-index.js', background: true}, note: 'Starting the indexer in the background.'};
	if (!started.startsWith('started background job')) return 'The indexer could not be started.';
	for (let attempt = 0; attempt < maxPolls; attempt += 1) {
		const observed = commandResult(yield {tool: 'run_command', args: {command: poll}, note: attempt === 0 ? 'Waiting for out/index.json.' : undefined});
		if (observed.exitCode !== 0 || observed.stdout.trim() === 'pending') continue;
		let index: {indexed?: unknown; rejected?: unknown; digest?: unknown};
		try {
			index = JSON.parse(observed.stdout) as typeof index;
		} catch {
			continue;
		}
		yield {tool: 'write_file', args: {path: 'summary.txt', content: `indexed=${index.indexed} rejected=${index.rejected} digest=${index.digest}\n`}};
		return 'The indexer finished; summary.txt reports its result.';
	}
	return `out/index.json did not appear after ${maxPolls} polls.`;
};
