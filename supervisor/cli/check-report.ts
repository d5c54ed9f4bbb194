import {failedExit, okExit} from './exit-codes.js';

/** One line per scenario or step: its verdict, its name padded to `width`, a detail, and its problems. */
export function itemLine(item: {name: string; passed: boolean; problems: string[]}, width: number, detail: string): string {
	return `${item.passed ? 'pass' : 'FAIL'}  ${item.name.padEnd(width)} ${detail}${item.problems.length ? `  -- ${item.problems.join('; ')}` : ''}`;
}

/** Prints a self-check's result.json (`--json`) or its item lines and verdict, and sets the exit status from the verdict. */
export function reportCheck(check: string, output: string, result: {passed: boolean}, json: boolean | undefined, lines: string[]): void {
	if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
	else process.stdout.write(`${[...lines, `${check} check ${result.passed ? 'passed' : 'FAILED'}: ${output}/result.json`].join('\n')}\n`);
	process.exitCode = result.passed ? okExit : failedExit;
}
