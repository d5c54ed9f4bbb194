/**
 * Parses order lines of the form `name,quantity,unit price`, e.g. `widget,3,2.50`.
 * Blank lines and lines starting with # are skipped.
 */
export function parseOrder(text) {
	const lines = [];
	for (const raw of text.split('\n')) {
		const line = raw.trim();
		if (line === '' || line.startsWith('#')) continue;
		const parts = line.split(',').map(part => part.trim());
		if (parts.length !== 3) throw new Error(`malformed order line: ${line}`);
		lines.push({name: parts[0], quantity: Number.parseInt(parts[2], 10), unitPrice: Number.parseFloat(parts[2])});
	}
	return lines;
}
