import {createRequire} from 'node:module';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {readPage} from './markdown.js';

const require = createRequire(import.meta.url);
const ruleFile = require(join(installRoot, '.dependency-cruiser.cjs')) as {forbidden: Array<{name: string; from: {pathNot?: string[]}}>};

/**
 * The rule file's layers, lowest first, as `npm run rules` checks them. The file exports its rules, not its `layers`
 * array; the rule that every module is in a layer lists every layer's path in order, followed by the folders outside
 * the layers. A layer's name is its path without the anchors: `^supervisor/input-error[.]ts$` is `supervisor/input-error`.
 */
function ruleLayers(): string[] {
	const everyModule = ruleFile.forbidden.find(rule => rule.name === 'every-module-in-a-layer');
	const paths = everyModule?.from.pathNot ?? [];
	return paths.filter(path => /^\^[\w/-]+(\/|\[\.\]ts\$)$/.test(path)).map(path => path.replace(/^\^/, '').replace(/(\/|\[\.\]ts\$)$/, ''));
}

/** The first column of the table under `## Layers` in docs/architecture.md, each cell's code spans in order. */
function documentedLayers(): string[] {
	const page = readPage('docs/architecture.md');
	const section = page.split(/^## /m).find(part => part.startsWith('Layers'));
	if (section === undefined) throw new Error('docs/architecture.md has no "## Layers" section');
	const rows = section.split('\n').filter(line => line.startsWith('|')).slice(2);
	return rows.flatMap(row => [...row.split('|')[2]!.matchAll(/`([^`]+)`/g)].map(match => match[1]!.replace(/\/$/, '').replace(/[.]ts$/, '')));
}

t.test('the layers read from the rule file are the ones its upward rules name', async t => {
	// Every layer but the top one has a `layer:NAME` rule: the two readings of the file must agree.
	const upward = ruleFile.forbidden.filter(rule => rule.name.startsWith('layer:')).map(rule => rule.name.slice('layer:'.length));
	t.strictSame(upward, ruleLayers().slice(0, -1));
	t.ok(ruleLayers().length > 10, 'the rule file has its layers');
});

t.test('docs/architecture.md draws the layers the rule file checks, in the same order', async t => {
	t.strictSame(documentedLayers(), ruleLayers());
});
