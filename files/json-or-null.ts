/** The value of a JSON text, or null when the text is not JSON: for callers to whom a bad text is just another wrong shape. */
export function jsonOrNull(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return null;
	}
}
