/** Harbor-format tasks (instruction.md, task.toml, environment/Dockerfile, tests/test.sh) as a task source without Docker. */
export {HarborTask} from './harbor-task.js';
export {findHarborTasks} from './find-harbor-tasks.js';
export {instructionOf, readHarborTask} from './read-harbor-task.js';
export {taskSourceFiles, verifierFiles} from './task-files.js';
export {seedHarborWorkspace} from './seed-workspace.js';
export {runVerifier} from './run-verifier.js';
