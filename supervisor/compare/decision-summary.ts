import type {Decision} from './decision-schema.js';
import {renderTable} from './table.js';

/** The text `hlab eval --compare` prints: the side-by-side table, the decision, every check, and where it was written. */
export function decisionSummary(decision: Decision, output: string | null): string {
	return [
		renderTable(decision.tasks),
		'',
		...(decision.hypothesis === null ? [] : [`hypothesis: ${decision.hypothesis}`]),
		`decision: ${decision.decision.toUpperCase()}${decision.decided_by === 'controller' ? ' (decided by the pinned controller\'s accept once every verification held)' : ''}`,
		...decision.checks.map(check => `  ${check.satisfied ? 'ok ' : 'NO '} ${check.rule}: ${check.message.replaceAll('\n', '\n        ')}`),
		...(output === null ? [] : [`decision written to ${output}`]),
		...(decision.evidence === null ? [] : [`controller calls kept in ${decision.evidence}`]),
	].join('\n');
}
