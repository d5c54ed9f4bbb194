/** The lines of two texts as a diff: ` ` kept, `-` only in the old, `+` only in the new (longest common subsequence). */
export function lineDiff(before: string, after: string): string[] {
	const a = before.split('\n');
	const b = after.split('\n');
	// lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
	const lengths = Array.from({length: a.length + 1}, () => new Array<number>(b.length + 1).fill(0));
	for (let i = a.length - 1; i >= 0; i -= 1) {
		for (let j = b.length - 1; j >= 0; j -= 1) {
			lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
		}
	}
	const lines: string[] = [];
	let i = 0;
	let j = 0;
	while (i < a.length || j < b.length) {
		if (i < a.length && j < b.length && a[i] === b[j]) {
			lines.push(`  ${a[i]}`);
			i += 1;
			j += 1;
		} else if (i < a.length && (j === b.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
			lines.push(`- ${a[i]}`);
			i += 1;
		} else {
			lines.push(`+ ${b[j]}`);
			j += 1;
		}
	}
	return lines;
}
