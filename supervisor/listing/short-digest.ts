/** A plan digest as a line shows it: `sha256:` dropped, the first 12 hex digits kept (enough to tell plans apart by eye). */
export function shortDigest(digest: string | null): string | null {
	return digest === null ? null : digest.replace(/^sha256:/, '').slice(0, 12);
}
