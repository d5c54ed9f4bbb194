import {dirname} from 'node:path/posix';
import {shellQuote} from '../../process/shell-quote.js';
import type {Intent} from './intent.js';

/*
 * Every intent as a shell command line, for an agent whose only fitting tool is a shell. Agents report a command's
 * exit status in their own ways, or not at all (opencode's bash prints only the output), so the line prints it
 * itself: the last line of the output is `hlab-exit: N` (`hlab-started: PID` for a background start).
 */

const delimiter = 'HLAB_EOF';

/**
 * The command line that does the intent at `step`. A command run again (a poll) is numbered with a no-op first line,
 * since agents refuse or halt on identical consecutive calls (Qwen Code's loop guard cannot be turned off).
 */
export function shellLine(intent: Intent, step: number): string {
	switch (intent.kind) {
		case 'list': return withStatus(`ls -A ${shellQuote(intent.path)}`);
		case 'read': return withStatus(`cat -- ${shellQuote(intent.path)}`);
		case 'write': return withStatus(writeLine(intent.path, intent.content));
		case 'run': return withStatus(`: step ${step + 1}\n${intent.command}`);
		// Detached from the tool's output and from its process group and session (agents end a command's group when it
		// returns, Codex among them), so the tool returns at once; polled with later commands.
		case 'start': return `setsid nohup sh -c ${shellQuote(intent.command)} >/dev/null 2>&1 < /dev/null &\necho "hlab-started: $!"`;
	}
}

/**
 * On a line of its own, so a comment or a trailing `&` in the command cannot swallow it; then the command's status is
 * the line's status again, so an agent that cuts a long output's end (and the marker with it) still reports it.
 */
function withStatus(line: string): string {
	return `${line}\n${statusLine}`;
}

export const statusLine = 'hlab_status=$?; echo "hlab-exit: $hlab_status"; (exit $hlab_status)';

/** A quoted heredoc keeps the content byte for byte; content without a final newline, or holding the delimiter, goes through printf. */
function writeLine(path: string, content: string): string {
	const folder = dirname(path);
	const made = folder === '.' ? '' : `mkdir -p -- ${shellQuote(folder)} && `;
	if (content.endsWith('\n') && !content.split('\n').includes(delimiter)) return `${made}cat > ${shellQuote(path)} <<'${delimiter}'\n${content}${delimiter}`;
	return `${made}printf '%s' ${shellQuote(content)} > ${shellQuote(path)}`;
}
