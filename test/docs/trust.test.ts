import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {IntegrityReason} from '../../supervisor/attempt/report/integrity-label.js';

t.test('docs/trust.md explains every integrity reason there is, and no other', async t => {
	const page = await readFile(join(installRoot, 'docs', 'trust.md'), 'utf8');
	const documented = [...page.matchAll(/^\| `([a-z-]+)` \| /gm)].map(match => match[1]);
	t.same(documented.sort(), [...IntegrityReason.options].sort());
});
