import {taskFile} from '../define-task.js';
import type {Grade, GradeOptions} from '../task-definition.js';
import {GradeChecks} from './grade-checks.js';
import {runNodeTests} from './run-node-tests.js';
import {changedFiles} from './workspace-files.js';

/** The grader of a task whose only goal is that its original tests pass: they must be unedited, and pass when run here. */
export function untouchedTestsPass(id: string, testFile: string, testNames: string[]): (workspace: string, options: GradeOptions) => Promise<Grade> {
	return async (workspace, options) => {
		const checks = new GradeChecks();
		const edited = await changedFiles(workspace, taskFile(id, ''), [testFile]);
		checks.check('the test file is unchanged', edited.length === 0, edited.length ? edited.join('; ') : null);
		const tests = await runNodeTests(workspace, {files: [testFile], names: testNames}, options);
		checks.check('the original tests pass', tests.passed, tests.problem);
		return checks.grade();
	};
}
