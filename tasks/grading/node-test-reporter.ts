/**
 * The grader's reporter for `node --test`. The runner (the parent process, which runs no workspace code: each test
 * file runs in a child of its own) loads it from a copy beside the workspace copy and writes what it yields to its
 * own stdout, which the grader holds and no workspace code can open by path. It writes one JSON line per top-level
 * result and one for the run's summary, never what the tests print: that is the workspace code's, and could pose as
 * a result. It imports nothing, since it is copied alone.
 */
interface RunnerEvent {
	type: string;
	data: {name?: unknown; nesting?: unknown; skip?: unknown; todo?: unknown; file?: unknown; counts?: unknown; details?: {error?: {cause?: unknown; message?: unknown}}};
}

/** A failure's first line (the assertion, not its stack), short: feedback for the agent, never part of the verdict. */
function errorOf(error: {cause?: unknown; message?: unknown} | undefined): string {
	const cause = error?.cause as {message?: unknown} | undefined;
	const message = typeof cause?.message === 'string' ? cause.message : String(error?.message ?? 'failed');
	return message.replace(/\s+/g, ' ').trim().slice(0, 300);
}

export default async function* nodeTestReporter(source: AsyncIterable<RunnerEvent>): AsyncGenerator<string> {
	for await (const {type, data} of source) {
		if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0) {
			const result = {result: type === 'test:pass' ? 'pass' : 'fail', name: String(data.name), skipped: Boolean(data.skip) || Boolean(data.todo)};
			yield `${JSON.stringify(type === 'test:pass' ? result : {...result, error: errorOf(data.details?.error)})}\n`;
		}
		// A summary with a file is one test file's; the run's own has none.
		if (type === 'test:summary' && data.file === undefined) yield `${JSON.stringify({summary: data.counts ?? null})}\n`;
	}
}
