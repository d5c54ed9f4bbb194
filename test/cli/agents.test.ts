import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

t.test('hlab agents validate prints what an example names, and refuses a loose version with exit 2 and one line', async t => {
	const ok = await hlab(['agents', 'validate', join(installRoot, 'examples/agents/codex.json')]);
	t.equal(ok.record.exit_code, 0, ok.stderr);
	t.match(ok.stdout, /codex\.json: adapter codex, @openai\/codex@0\.171\.0, model gpt-5-codex\n$/);
	const dir = await tempDir(t);
	await writeFile(join(dir, 'agent.json'), JSON.stringify({schema: 'harness-lab/agent@1', adapter: 'pi', package: {name: '@mariozechner/pi-coding-agent', version: 'latest'}, model: 'm'}));
	const refused = await hlab(['agents', 'install', join(dir, 'agent.json')], {env: {HLAB_AGENT_STORE: join(dir, 'store')}});
	t.equal(refused.record.exit_code, 2);
	t.match(refused.stderr, /^hlab: .*agent\.json: package\.version: "latest" is a tag, which moves: pin an exact version such as 1\.2\.3\n$/);
});

t.test('hlab agents install refuses a command spec with nothing to install, and verify one that is not installed', async t => {
	const store = join(await tempDir(t), 'store');
	const command = await hlab(['agents', 'install', join(installRoot, 'examples/agents/command.json')], {env: {HLAB_AGENT_STORE: store}});
	t.equal(command.record.exit_code, 2);
	t.match(command.stderr, /^hlab: the command spec names no package: .*nothing to install\n$/);
	const verify = await hlab(['agents', 'verify', join(installRoot, 'examples/agents/qwen-code.json')], {env: {HLAB_AGENT_STORE: store}});
	t.equal(verify.record.exit_code, 1);
	t.match(verify.stderr, /^hlab: @qwen-code\/qwen-code@0\.24\.4 is not installed in the store .*run hlab agents install\n$/);
});
