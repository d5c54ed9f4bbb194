/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, no undefined members.
 * Two equal values always give the same bytes, so a digest over them is stable.
 */
export function canonicalJson(value: unknown): string {
	if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot hold ${value}`);
		return JSON.stringify(value);
	}
	if (Array.isArray(value)) return `[${value.map(item => canonicalJson(item ?? null)).join(',')}]`;
	if (typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, item]) => item !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
	}
	throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
}
