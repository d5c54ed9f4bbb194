import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';

// `npm run rules` looks at the project's folders only (evidence beside them is not source): knip's list is tsconfig's.
t.test('knip\'s project folders are tsconfig.json\'s include', async t => {
	const include = (JSON.parse(readFileSync(join(installRoot, 'tsconfig.json'), 'utf8')) as {include: string[]}).include;
	const knip = readFileSync(join(installRoot, 'knip.jsonc'), 'utf8').split('\n').filter(line => !/^\s*\/\//.test(line)).join('\n');
	const project = (JSON.parse(knip) as {project: string[]}).project;
	const folders = /^\{([^}]+)\}\/\*\*\/\*\.ts$/.exec(project[0] ?? '')?.[1]?.split(',');
	t.same(folders, include, 'the same folders, in the same order');
	t.same(project.slice(1), ['bin/*.js']);
});
