import {mkdir, realpath} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {resolveInWorkspace} from '../../../engine/tools/workspace-path.js';
import {publishSandbox} from '../../../process/index.js';
import {tempDir} from '../../temp-dir.js';

const root = await realpath(await tempDir(t, 'hlab-workspace-path-'));
await mkdir(join(root, 'src'));

t.test('without a published WORKDIR an absolute path is outside the workspace', async t => {
	publishSandbox(null);
	t.throws(() => resolveInWorkspace(root, '/app/src'), {message: /outside the workspace/});
	t.equal(resolveInWorkspace(root, 'src'), join(root, 'src'));
});

t.test('under a Harbor plan\'s sandbox, a path under the WORKDIR is the workspace\'s own; others stay refused', async t => {
	publishSandbox({hidden: [], network: false, workdir: '/app'});
	t.teardown(() => publishSandbox(null));
	t.equal(resolveInWorkspace(root, '/app/src/a.txt'), join(root, 'src', 'a.txt'));
	t.equal(resolveInWorkspace(root, '/app'), root);
	t.equal(resolveInWorkspace(root, 'src'), join(root, 'src'), 'relative paths are as before');
	for (const outside of ['/application', '/app/../etc/passwd', '/etc/passwd', '/tests/test.sh', '/logs/verifier/reward.txt']) {
		t.throws(() => resolveInWorkspace(root, outside), {message: /outside the workspace/}, outside);
	}
});
