export {AtifTrajectory, atifVersion} from './atif/atif-schema.js';
export {trajectoryFile, TrajectoryInvalid, writeTaskTrajectory} from './atif/task-trajectory.js';
