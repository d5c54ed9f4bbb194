import {isDeepStrictEqual} from 'node:util';
import {readFile} from 'node:fs/promises';
import {defineTask, expectedFile, taskFile} from '../define-task.js';
import {GradeChecks} from '../grading/grade-checks.js';
import {changedFiles, readWorkspaceJson} from '../grading/workspace-files.js';
import {reference} from './reference.js';

const id = 'json_config_migration';

export const jsonConfigMigration = defineTask({
	id,
	title: 'Migrate a JSON service configuration to format 2',
	prompt: 'Migrate the service configuration to format 2 as described in MIGRATION.md: write config/service.v2.json and keep config/service.v1.json unchanged.',
	tools: [],
	reference,
	async grade(workspace) {
		const checks = new GradeChecks();
		const edited = await changedFiles(workspace, taskFile(id, ''), ['config/service.v1.json']);
		checks.check('the version 1 file is unchanged', edited.length === 0, edited.length ? edited.join('; ') : null);
		const expected: unknown = JSON.parse(await readFile(expectedFile(id, 'config/service.v2.json'), 'utf8'));
		const actual = await readWorkspaceJson(workspace, 'config/service.v2.json');
		if (!actual.ok) checks.check('config/service.v2.json is the migrated configuration', false, actual.problem);
		else checks.check('config/service.v2.json is the migrated configuration', isDeepStrictEqual(actual.value, expected), `found ${JSON.stringify(actual.value).slice(0, 300)}`);
		return checks.grade();
	},
});
