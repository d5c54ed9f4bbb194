/**
 * How long a provider asked the client to wait, from the headers of a refusal; null when it did not say.
 * `retry-after-ms` and `Retry-After` (seconds or an HTTP date) say it directly; otherwise the rate-limit reset
 * headers say when the exhausted window refills.
 */
export function advisedWaitMs(headers: Headers, nowMs = Date.now()): number | null {
	return millis(headers.get('retry-after-ms')) ?? retryAfter(headers.get('retry-after'), nowMs) ?? resetWait(headers);
}

function millis(value: string | null): number | null {
	if (value === null || value.trim() === '') return null;
	const ms = Number(value);
	return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

function retryAfter(value: string | null, nowMs: number): number | null {
	if (value === null || value.trim() === '') return null;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
	const at = Date.parse(value);
	return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

const kinds = ['requests', 'tokens'] as const;

/** The reset of the window that is exhausted (remaining `0`); when none says so, the earliest reset. */
function resetWait(headers: Headers): number | null {
	const resets = kinds.map(kind => ({
		exhausted: headers.get(`x-ratelimit-remaining-${kind}`)?.trim() === '0',
		ms: parseDuration(headers.get(`x-ratelimit-reset-${kind}`)),
	})).filter((reset): reset is {exhausted: boolean; ms: number} => reset.ms !== null);
	const exhausted = resets.filter(reset => reset.exhausted);
	if (exhausted.length > 0) return Math.max(...exhausted.map(reset => reset.ms));
	return resets.length > 0 ? Math.min(...resets.map(reset => reset.ms)) : null;
}

const unitMs = {h: 3_600_000, m: 60_000, s: 1000, ms: 1} as const;

/** A Go-style duration such as `1s`, `6m0s`, `250ms` or `1h2m3.5s`; a bare number is seconds. */
export function parseDuration(value: string | null): number | null {
	const text = value?.trim() ?? '';
	if (text === '') return null;
	if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
	const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
	if (parts.length === 0 || parts.map(part => part[0]).join('') !== text) return null;
	return parts.reduce((sum, part) => sum + Number(part[1]) * unitMs[part[2] as keyof typeof unitMs], 0);
}
