import {join} from 'node:path';
import type {AgentTask} from '../adapter-contract.js';
import {treeFolder} from '../store/tree-digests.js';

/** The installed tree of the task's package (`node_modules/` of its store folder): the package and its platform packages are in it. */
export function storeTree(task: AgentTask, adapter: string): string {
	if (task.packageDir === null) throw new Error(`the ${adapter} adapter starts a package from the store; the task has no package folder`);
	return join(task.packageDir, treeFolder);
}
