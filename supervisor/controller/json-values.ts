/** What a controller's stdout holds, judged before any schema. */
export type StdoutReading =
	| {kind: 'empty'}
	| {kind: 'invalid'; message: string}
	| {kind: 'multiple'; count: number}
	| {kind: 'one'; value: unknown};

const utf8 = new TextDecoder('utf-8', {fatal: true});
const whitespace = new Set([' ', '\t', '\n', '\r']);
const delimiters = new Set(['{', '}', '[', ']', '"', ',', ':']);

/** Reads stdout as exactly one JSON value, telling garbage apart from several valid values. */
export function readOneJsonValue(bytes: Uint8Array): StdoutReading {
	let text: string;
	try {
		text = utf8.decode(bytes);
	} catch {
		return {kind: 'invalid', message: 'stdout is not valid UTF-8'};
	}
	if (text.trim() === '') return {kind: 'empty'};
	try {
		return {kind: 'one', value: JSON.parse(text)};
	} catch (error) {
		const count = countValues(text);
		if (count !== null && count > 1) return {kind: 'multiple', count};
		return {kind: 'invalid', message: `stdout is not JSON: ${(error as Error).message}`};
	}
}

/** How many JSON values follow each other in `text`, or null if any of them is not JSON. */
function countValues(text: string): number | null {
	let count = 0;
	let position = skipWhitespace(text, 0);
	while (position < text.length) {
		const end = valueEnd(text, position);
		if (end === null) return null;
		try {
			JSON.parse(text.slice(position, end));
		} catch {
			return null;
		}
		count += 1;
		position = skipWhitespace(text, end);
	}
	return count;
}

function skipWhitespace(text: string, position: number): number {
	while (position < text.length && whitespace.has(text[position]!)) position += 1;
	return position;
}

/** Where the value starting at `start` ends, by bracket and string structure; null when it does not end. */
function valueEnd(text: string, start: number): number | null {
	const first = text[start]!;
	if (first !== '{' && first !== '[' && first !== '"') {
		let end = start;
		while (end < text.length && !whitespace.has(text[end]!) && !delimiters.has(text[end]!)) end += 1;
		return end === start ? null : end;
	}
	let depth = 0;
	let inString = false;
	for (let index = start; index < text.length; index += 1) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index += 1;
			else if (char === '"') {
				inString = false;
				if (depth === 0) return index + 1;
			}
		} else if (char === '"') inString = true;
		else if (char === '{' || char === '[') depth += 1;
		else if (char === '}' || char === ']') {
			depth -= 1;
			if (depth === 0) return index + 1;
		}
	}
	return null;
}
