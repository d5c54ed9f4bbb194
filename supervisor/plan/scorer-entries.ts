/**
 * The entry points of the code that grades and decides, as compiled module paths under `dist/`.
 * The scorer identity is every project file these import, found from the module graph; this is the one
 * list to adjust when a deciding module moves. Only static imports are followed: a module started by path at
 * run time (the task worker, the scripted server) is in the scorer only if one of these imports it.
 */
export const deciderEntries = [
	// Verifies both sides and applies the acceptance rule.
	'supervisor/compare/compare-reports.js',
	// The report format both sides are read through.
	'supervisor/attempt/report/report-schema.js',
	// Grades each task's workspace and builds the report.
	'supervisor/attempt/run-attempt.js',
	// The engine's run loop: usage accounting and the tool constraints every agent runs under.
	'engine/loop/run-agent.js',
	// The wall time of host candidates, as the supervisor measured it.
	'supervisor/host/supervised-timing.js',
] as const;

/** A built-in task's definition module: its grader and what it imports. */
export function taskEntry(id: string): string {
	return `tasks/${id}/task.js`;
}
