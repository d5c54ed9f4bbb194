import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runNodeTests} from '../../../tasks/grading/run-node-tests.js';
import {checkNoLeaks} from '../../leak-check.js';
import {tempDir} from '../../temp-dir.js';

checkNoLeaks(t);

const variable = 'HLAB_TEST_PROVIDER_KEY';

/** A workspace whose test, importing the agent's code, fails when it can read the provider's key. */
async function prying(t: Parameters<typeof tempDir>[0]): Promise<string> {
	const workspace = await tempDir(t, 'hlab-grader-env-');
	await mkdir(join(workspace, 'test'));
	await writeFile(join(workspace, 'package.json'), '{"type": "module"}\n');
	await writeFile(join(workspace, 'test', 'key.test.js'), `import {test} from 'node:test';\nimport assert from 'node:assert/strict';\ntest('the key is out of reach', () => assert.equal(process.env.${variable}, undefined));\n`);
	return workspace;
}

t.test('the agent\'s code, run by the grader, does not inherit the provider\'s API key', async t => {
	process.env[variable] = 'sk-secret';
	t.teardown(() => {
		delete process.env[variable];
	});
	const workspace = await prying(t);
	const hidden = await runNodeTests(workspace, ['test/key.test.js'], {timeoutMs: 30_000, secretEnv: [variable]});
	t.same(hidden, {passed: true, problem: null});
	const inherited = await runNodeTests(workspace, ['test/key.test.js'], {timeoutMs: 30_000});
	t.equal(inherited.passed, false, 'without the name, the key would be inherited: the test can fail');
});
