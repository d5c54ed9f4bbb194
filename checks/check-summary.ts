/** One line per scenario or step: its verdict, its name padded to `width`, a detail, and its problems. */
export function itemLine(item: {name: string; passed: boolean; problems: string[]}, width: number, detail: string): string {
	return `${item.passed ? 'pass' : 'FAIL'}  ${item.name.padEnd(width)} ${detail}${item.problems.length ? `  -- ${item.problems.join('; ')}` : ''}`;
}

/** The text a self-check prints: its item lines, then the verdict and where result.json is. */
export function checkSummary(check: string, output: string, passed: boolean, lines: string[]): string {
	return `${[...lines, `${check} check ${passed ? 'passed' : 'FAILED'}: ${output}/result.json`].join('\n')}\n`;
}
