import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {renderCliReference} from '../../cli/cli-reference.js';

t.test('docs/cli.md is what the loaded commands print as their help', async t => {
	const committed = await readFile(join(installRoot, 'docs', 'cli.md'), 'utf8').catch(() => null);
	t.equal(committed, await renderCliReference(), 'docs/cli.md is stale: run `npm run build && npm run docs:cli` and commit docs/cli.md');
});

t.test('the reference has a section for every command and subcommand, with its options', async t => {
	const page = await renderCliReference();
	t.match(page, /\n## hlab eval\n\n```text\nUsage: hlab eval \[options\]\n/);
	t.match(page, /\n## hlab cartridge eval\n/);
	t.match(page, /Modes \(give exactly one\):\n {2}--freeze <plan\.json>/);
});
