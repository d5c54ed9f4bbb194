import type {Grade} from '../tasks/index.js';
import type {Judgement} from './judge-case.js';

/** A judged case as a task's grade: its verdict, the mean of the scores graders gave (null when none did), and every failure named. */
export function caseGrade(judged: Judgement): Grade {
	const scores = judged.graders.flatMap(result => (result.score === null ? [] : [result.score]));
	const score = scores.length === 0 ? null : scores.reduce((sum, value) => sum + value, 0) / scores.length;
	const details = judged.verdict.passed
		? `every grader passed (${judged.graders.map(result => `${result.module}#${result.name}`).join(', ')})`
		: judged.verdict.failures.map(failure => `${failure.reason}: ${failure.detail}`).join('; ');
	return {passed: judged.verdict.passed, score, details};
}
