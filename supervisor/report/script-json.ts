/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` become \u escapes, so no text in the data
 * ("</script>", "<!--") can end the element or start markup; U+2028/2029 are escaped for older parsers.
 */
export function scriptJson(value: unknown): string {
	return JSON.stringify(value)
		.replaceAll('<', '\\u003c')
		.replaceAll('>', '\\u003e')
		.replaceAll('&', '\\u0026')
		.replaceAll('\u2028', '\\u2028')
		.replaceAll('\u2029', '\\u2029');
}
