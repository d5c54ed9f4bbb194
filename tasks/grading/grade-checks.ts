import type {Grade} from '../task-definition.js';

/** Collects a grader's named checks; the task passes when every check passes, the score is the share passed. */
export class GradeChecks {
	private readonly results: {name: string; passed: boolean; detail: string | null}[] = [];

	check(name: string, passed: boolean, detail: string | null = null): boolean {
		this.results.push({name, passed, detail});
		return passed;
	}

	grade(): Grade {
		const passed = this.results.filter(result => result.passed).length;
		return {
			passed: this.results.length > 0 && passed === this.results.length,
			score: this.results.length === 0 ? 0 : passed / this.results.length,
			details: this.results.map(result => `${result.passed ? 'pass' : 'FAIL'}: ${result.name}${result.detail ? ` (${result.detail})` : ''}`).join('\n'),
		};
	}
}
