import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkSpec} from '../../../agents/index.js';
import {codexAdapter as codex} from '../../../agents/adapters/codex/index.js';
import {opencodeAdapter as opencode} from '../../../agents/adapters/opencode/index.js';
import {piAdapter as pi} from '../../../agents/adapters/pi/index.js';
import {qwenCodeAdapter as qwen} from '../../../agents/adapters/qwen-code/index.js';

const adapters = {pi, 'qwen-code': qwen, opencode, codex};

t.test('each example spec names its adapter and passes none of the flags its adapter reserves', async t => {
	for (const [id, adapter] of Object.entries(adapters)) {
		const spec = checkSpec(JSON.parse(await readFile(join(import.meta.dirname, '../../../../examples/agents', `${id}.json`), 'utf8')));
		if (typeof spec === 'string') return t.fail(`examples/agents/${id}.json: ${spec}`);
		t.equal(spec.adapter, adapter.id, `${id}.json is the ${adapter.id} adapter's`);
		t.strictSame(spec.flags.filter(flag => adapter.reservedFlags.includes(flag.split('=')[0]!)), [], `${id}.json passes no reserved flag`);
	}
});
