/** The JSON objects of an agent's stdout, one a line; a line that is not a JSON object (a log line, a cut-off tail) is skipped. */
export function jsonLines(text: string): Record<string, unknown>[] {
	const objects: Record<string, unknown>[] = [];
	for (const line of text.split('\n')) {
		const trimmed = line.trim();
		if (!trimmed.startsWith('{')) continue;
		try {
			const value: unknown = JSON.parse(trimmed);
			if (typeof value === 'object' && value !== null && !Array.isArray(value)) objects.push(value as Record<string, unknown>);
		} catch {
			// A partial last line of an agent ended mid-write.
		}
	}
	return objects;
}
