import {parseCommandObservation} from '../../tasks/reference/observations.js';

/*
 * An agent's tool result read back as the built-in tool's observation, which is what the references parse: a file's
 * text exactly (no line numbers, no header or footer), a command's exit status and output in run_command's format,
 * and "started background job" for a start. Agents wrap results in JSON ({"output": ...}), label them ("Output:",
 * "Exit Code: 1"), number the lines ("1: ", "   1\t", "00001| ") or frame them (<content>...</content>).
 */

const lastExit = /hlab-exit: (\d+)/g;

/** A JSON wrapper's text and exit status (Codex's shell: {"output": ..., "metadata": {"exit_code": 0}}), or the text as it is. */
function unwrapJson(text: string): {text: string; exitCode: number | null} {
	if (!text.trimStart().startsWith('{')) return {text, exitCode: null};
	try {
		const value = JSON.parse(text) as Record<string, unknown>;
		const inner = [value['output'], value['content'], value['stdout']].find(field => typeof field === 'string');
		if (typeof inner !== 'string') return {text, exitCode: null};
		const metadata = (value['metadata'] ?? {}) as Record<string, unknown>;
		const code = [metadata['exit_code'], value['exit_code'], value['exitCode']].find(field => typeof field === 'number');
		return {text: inner, exitCode: typeof code === 'number' ? code : null};
	} catch {
		return {text, exitCode: null};
	}
}

/** The command's own output without the agent's labels before it (Qwen Code's "Command:/Directory:/Output: ", Codex's "...\nOutput:\n"). */
function withoutPreamble(text: string): string {
	if (/^(Command|Directory): /.test(text)) {
		const at = text.search(/(^|\n)Output: /);
		if (at >= 0) return text.slice(text.indexOf('Output: ', at) + 'Output: '.length);
	}
	const label = /^Output:\n/m.exec(text);
	if (label && /^(Chunk ID|Wall time|Exit code|Process exited|Command)[: ]/.test(text)) return text.slice(label.index + label[0].length);
	return text;
}

/** An exit status the agent printed itself, when the line's own marker is missing (a timed-out or refused command). */
function printedExit(text: string): number | null {
	const match = /(?:Exit Code|exit_code|Exit code|exited with code):? (\d+)/.exec(text);
	return match ? Number(match[1]) : null;
}

/** A shell tool's result as run_command's observation (stderr is in the output: agents merge the two). */
export function commandObservation(result: string): string {
	const {text, exitCode: wrapped} = unwrapJson(result);
	const markers = [...text.matchAll(lastExit)];
	const marker = markers.at(-1);
	const exitCode = marker ? Number(marker[1]) : wrapped ?? printedExit(text);
	const output = withoutPreamble(marker ? text.slice(0, marker.index) : text);
	return `${exitCode === null ? 'signal: unknown' : `exit_code: ${exitCode}`}\n--- stdout ---\n${output}\n--- stderr ---\n`;
}

/** A file read through the shell (`cat`): its output when the command succeeded, else a tool error. */
export function shellFileText(result: string): string {
	const observed = parseCommandObservation(commandObservation(result))!;
	return observed.exitCode === 0 ? observed.stdout : `error: ${observed.stdout.trim() || 'the file could not be read'}`;
}

/** A background start through the shell: started when the line printed the job's pid. */
export function startObservation(result: string): string {
	// Our own marker, or the agent's word for a job it runs itself (Qwen Code: "Background shell started.\nid: bg_1\npid: 42").
	const text = unwrapJson(result).text;
	const match = /hlab-started: (\d+)/.exec(text) ?? (/^Background shell\b[^\n]*\bstarted\b/.test(text) ? /\bpid:? \(?(\d+)/.exec(text) : null);
	return match ? `started background job (pid ${match[1]})` : `error: ${result}`;
}

/** A read tool's result as the file's text. */
export function fileText(result: string): string {
	let text = unwrapJson(result).text;
	// An agent's own failure line, never a file that merely starts with the word.
	if (/^(error: |ENOENT|File not found)/i.test(text)) return `error: ${text.replace(/^error: /i, '')}`;
	const framed = /<content>\n([\s\S]*?)\n?<\/content>/.exec(text);
	if (framed) text = framed[1]!.replace(/\n*\((End of file|Showing lines|Output capped)[^\n]*\)\s*$/, '');
	text = text.replace(/^Showing lines \d+-\d+ of [^\n]* total lines\.\n\n---\n\n/, '');
	text = text.replace(/\n\n\[(Showing lines|Truncated|First line exceeds)[^\n]*\]\s*$/, '\n');
	return withoutLineNumbers(text) ?? text;
}

/** The text without a line-number prefix on every line (1, 2, 3...), or null when the lines are not numbered so. */
function withoutLineNumbers(text: string): string | null {
	const lines = text.split('\n');
	if (lines.at(-1) === '') lines.pop();
	const prefix = /^\s*(\d+)(?:: |:\t|\t|\| | \| |→)/;
	// From line 1: the references read whole files, and a file whose own first line is "7: ..." stays as it is.
	const start = 1;
	const stripped: string[] = [];
	for (const [index, line] of lines.entries()) {
		// A blank numbered line may have lost its trailing space ("3:").
		const match = prefix.exec(line) ?? /^\s*(\d+):?$/.exec(line);
		if (!match || Number(match[1]) !== start + index) return null;
		stripped.push(line.slice(match[0].length));
	}
	// Numbered lines drop the file's final newline; the built-in tasks' files all end with one.
	return `${stripped.join('\n')}\n`;
}
