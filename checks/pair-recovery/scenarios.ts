import type {PairRecord} from '../../supervisor/pair/index.js';
import type {SideBehaviour} from './synthetic-side.js';

export interface RecoveryScenario {
	name: string;
	description: string;
	behaviours: {baseline: SideBehaviour; candidate: SideBehaviour};
	timeoutS: number;
	/** What the check does to the pair process once the candidate has recorded this many tasks. */
	interrupt: {after: number; how: 'SIGTERM' | 'SIGKILL'} | null;
	/** Problems with the final pair.json, given the denominator size; empty means the scenario passed. */
	verify(pair: PairRecord, size: number): string[];
}

/** Every scenario keeps the denominator, keeps what was recorded, and fails what was not. */
function common(pair: PairRecord, size: number, recorded: {baseline: number; candidate: number}): string[] {
	const problems: string[] = [];
	if (pair.tasks.length !== size) problems.push(`the denominator shrank to ${pair.tasks.length} of ${size}`);
	if (pair.plan.task_ids.length !== size) problems.push('the recorded plan lost tasks');
	for (const side of ['baseline', 'candidate'] as const) {
		pair.tasks.forEach((task, index) => {
			if (index < recorded[side]) {
				if (task[side].status !== 'passed') problems.push(`${side} task ${task.task_id} was completed but pair.json says ${task[side].status}`);
				else if (task[side].usage?.total_tokens !== 120) problems.push(`${side} task ${task.task_id} lost its usage`);
			} else if (task[side].status !== 'missing') {
				problems.push(`${side} task ${task.task_id} never finished but pair.json says ${task[side].status}`);
			}
		});
	}
	return problems;
}

const complete: SideBehaviour = {records: 99, then: 'report'};

export function recoveryScenarios(): RecoveryScenario[] {
	return [
		{
			name: 'both-complete',
			description: 'both sides finish; the baseline executable\'s compare decides',
			behaviours: {baseline: complete, candidate: complete},
			timeoutS: 60,
			interrupt: null,
			verify: (pair, n) => [
				...common(pair, n, {baseline: n, candidate: n}),
				...(pair.status !== 'finished' ? [`status is ${pair.status}`] : []),
				...(pair.comparison?.argv == null ? ['the complete reports were not compared by the baseline executable'] : []),
				...(pair.comparison?.decision !== 'accept' ? ['the decision of the baseline\'s compare was not kept'] : []),
			],
		},
		{
			name: 'candidate-crash',
			description: 'the candidate side records two tasks, then dies by SIGKILL',
			behaviours: {baseline: complete, candidate: {records: 2, then: 'crash'}},
			timeoutS: 60,
			interrupt: null,
			verify: (pair, n) => [
				...common(pair, n, {baseline: n, candidate: 2}),
				...(pair.sides.candidate.signal !== 'SIGKILL' ? [`the candidate's end was recorded as ${pair.sides.candidate.signal ?? pair.sides.candidate.exit_code}`] : []),
				...(pair.sides.candidate.comparable ? ['a crashed side was accepted for comparison'] : []),
				...(pair.comparison?.decision !== 'reject' ? ['a pair with a crashed side was not rejected'] : []),
			],
		},
		{
			name: 'candidate-timeout',
			description: 'the candidate side records one task, then hangs past the pair\'s wall-clock limit',
			behaviours: {baseline: complete, candidate: {records: 1, then: 'hang'}},
			// Long enough for the baseline's tasks beside four other scenarios on a loaded machine; the candidate hangs past any limit.
			timeoutS: 6,
			interrupt: null,
			verify: (pair, n) => [
				...common(pair, n, {baseline: n, candidate: 1}),
				...(pair.sides.candidate.failure !== 'timeout' ? [`the candidate's failure was recorded as ${pair.sides.candidate.failure}`] : []),
				...(pair.comparison?.decision !== 'reject' ? ['a timed-out side was not rejected'] : []),
			],
		},
		{
			name: 'pair-cancelled',
			description: 'the pair process gets SIGTERM while the candidate hangs after one task',
			behaviours: {baseline: complete, candidate: {records: 1, then: 'hang'}},
			timeoutS: 120,
			interrupt: {after: 1, how: 'SIGTERM'},
			verify: (pair, n) => [
				...common(pair, n, {baseline: n, candidate: 1}),
				...(pair.status !== 'interrupted' ? [`status is ${pair.status}, not interrupted`] : []),
				...(pair.interruption?.signal !== 'SIGTERM' ? ['the interruption was not recorded'] : []),
				...(pair.sides.candidate.process === null ? ['the candidate\'s process record was not kept'] : []),
				...(pair.comparison?.decision !== 'reject' ? ['an interrupted pair was not rejected'] : []),
			],
		},
		{
			name: 'pair-killed',
			description: 'the pair process itself dies by SIGKILL after the candidate recorded two tasks',
			behaviours: {baseline: complete, candidate: {records: 2, then: 'hang'}},
			timeoutS: 120,
			interrupt: {after: 2, how: 'SIGKILL'},
			verify: (pair, n) => [
				...common(pair, n, {baseline: n, candidate: 2}),
				// Nobody was left to finish the record: it must not claim more than happened.
				...(pair.status !== 'running' ? [`status is ${pair.status} though the pair never finished`] : []),
				...(pair.comparison !== null ? ['a decision appeared for a pair that never finished'] : []),
			],
		},
	];
}
