import {z} from 'zod';
// The schema's own file: every plan schema holds it, and the folder's index loads the verifier's runner (process/).
import {HarborTask} from '../../tasks/harbor/harbor-task.js';

/** A folder of Harbor tasks as a plan's task source: each task's record, and the one WORKDIR the agent's view shows. */
export const PlanHarbor = z.object({
	/** The folder given to --harbor-tasks (one task, or a folder of tasks). */
	dir: z.string(),
	/** The selected tasks' WORKDIR (one per plan: the attempt's sandbox shows every workspace there). */
	workdir: z.string(),
	tasks: z.array(HarborTask).min(1),
});
export type PlanHarbor = z.infer<typeof PlanHarbor>;

/** The CPUs a Harbor plan's tool commands may use: the most its tasks ask for ([environment] cpus); null when none asks, or for other plans. */
export function harborCpuLimit(harbor: PlanHarbor | undefined): number | null {
	const asked = (harbor?.tasks ?? []).flatMap(task => (task.cpus === null ? [] : [task.cpus]));
	return asked.length === 0 ? null : Math.max(...asked);
}
