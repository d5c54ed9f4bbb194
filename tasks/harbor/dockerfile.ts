/** One instruction of a Dockerfile: its keyword (upper case) and the rest of its line, continuations joined. */
export interface DockerInstruction {
	keyword: string;
	args: string;
	line: number;
}

/** The instructions in order; comments, blank lines and parser directives dropped, `\` continuations joined. */
export function parseDockerfile(text: string): DockerInstruction[] {
	const out: DockerInstruction[] = [];
	let pending: {text: string; line: number} | null = null;
	const lines = text.split('\n').map(raw => raw.replace(/\r$/, ''));
	for (const [index, line] of lines.entries()) {
		// A comment line is dropped even inside a continued instruction, as Docker does.
		if (line.trimStart().startsWith('#') || (pending === null && line.trim() === '')) continue;
		const continued = /\\\s*$/.test(line);
		const part = continued ? line.replace(/\s*\\\s*$/, '') : line;
		pending = pending === null ? {text: part, line: index + 1} : {text: `${pending.text} ${part.trim()}`, line: pending.line};
		if (continued) continue;
		out.push(instructionOf(pending.text, pending.line));
		pending = null;
	}
	if (pending !== null) out.push(instructionOf(pending.text, pending.line));
	return out;
}

function instructionOf(text: string, line: number): DockerInstruction {
	const trimmed = text.trim();
	const space = trimmed.search(/\s/);
	return space === -1
		? {keyword: trimmed.toUpperCase(), args: '', line}
		: {keyword: trimmed.slice(0, space).toUpperCase(), args: trimmed.slice(space).trim(), line};
}

/** The words of a shell-form or JSON-form (`["a", "b"]`) argument list. */
export function wordsOf(args: string): string[] {
	if (args.startsWith('[')) {
		try {
			const parsed: unknown = JSON.parse(args);
			if (Array.isArray(parsed) && parsed.every(item => typeof item === 'string')) return parsed;
		} catch {
			// Not JSON: read as shell words.
		}
	}
	return args.split(/\s+/).filter(word => word !== '').map(word => word.replace(/^(['"])(.*)\1$/, '$2'));
}
