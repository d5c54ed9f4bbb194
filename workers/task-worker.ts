// The piscina worker's entry: the compile cache first, as the CLI's (bin/hlab.js), so the thread's engine and model client
// load from code compiled before (a worker thread does not inherit it); then the job runner, imported after it.
import module from 'node:module';

module.enableCompileCache?.();
const {runTaskJob} = await import('./run-task-job.js');
export default runTaskJob;
