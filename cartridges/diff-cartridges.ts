import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {z} from 'zod';
import type {LoadedCartridge} from './loaded-cartridge.js';
import {lineDiff} from './line-diff.js';

export const CartridgeChange = z.object({
	section: z.enum(['manifest', 'config', 'runtime', 'prompt', 'tools', 'resources', 'cases', 'collectors', 'graders']),
	name: z.string(),
	change: z.enum(['added', 'removed', 'changed']),
	/** What differs, in one line (which digests, which parts). */
	detail: z.string(),
	/** With --show: the changed text as a line diff. */
	lines: z.array(z.string()).nullable(),
});
export type CartridgeChange = z.infer<typeof CartridgeChange>;

export const CartridgeDiff = z.object({
	schema: z.literal('harness-lab/cartridge-diff@1'),
	before: z.object({dir: z.string(), fingerprint: z.string()}),
	after: z.object({dir: z.string(), fingerprint: z.string()}),
	/** True when the Harness fingerprints differ: the agent itself changed, not only its cases or graders. */
	harness_changed: z.boolean(),
	changes: z.array(CartridgeChange),
});
export type CartridgeDiff = z.infer<typeof CartridgeDiff>;

/** One comparable item of a section: its digests and, for --show, where its text lives. */
interface Item {
	name: string;
	digests: Record<string, string>;
	text: (cartridge: LoadedCartridge) => Promise<string>;
}

const json = (value: unknown) => async (): Promise<string> => `${JSON.stringify(value, null, 2)}\n`;
const file = (path: string) => async (cartridge: LoadedCartridge): Promise<string> => readFile(join(cartridge.dir, path), 'utf8').catch(() => '');
const joined = (...parts: ((cartridge: LoadedCartridge) => Promise<string>)[]) => async (cartridge: LoadedCartridge): Promise<string> => (await Promise.all(parts.map(part => part(cartridge)))).join('\n');

function sections(cartridge: LoadedCartridge): Record<CartridgeChange['section'], Item[]> {
	return {
		manifest: [{name: 'cartridge.json', digests: {manifest: cartridge.digests.manifest}, text: json(cartridge.manifest)}],
		config: [{name: 'config.yaml', digests: {config: cartridge.digests.config}, text: json(cartridge.config)}],
		runtime: [{name: 'runtime.yaml', digests: {runtime: cartridge.digests.runtime}, text: json(cartridge.runtime)}],
		prompt: [{name: cartridge.prompt.path, digests: {text: cartridge.prompt.digest}, text: async () => cartridge.prompt.text}],
		tools: cartridge.tools.map(tool => ({
			name: tool.name,
			digests: {definition: tool.definition_digest, source: tool.execute.source_digest},
			text: joined(file(`tools/${tool.name}/tool.yaml`), file(tool.execute.path)),
		})),
		resources: cartridge.resources.map(resource => ({name: resource.name, digests: {source: resource.build.source_digest}, text: file(resource.build.path)})),
		cases: cartridge.cases.map(entry => ({name: entry.id, digests: {case: entry.digest, expected: entry.expected_digest}, text: file(entry.path)})),
		collectors: cartridge.collectors.map(module => ({name: module.source.path, digests: {source: module.source.source_digest}, text: file(module.source.path)})),
		graders: cartridge.graders.map(module => ({
			name: module.source.path,
			digests: {source: module.source.source_digest, marks: JSON.stringify(module.exports)},
			text: file(module.source.path),
		})),
	};
}

async function compareSection(section: CartridgeChange['section'], before: Item[], after: Item[], a: LoadedCartridge, b: LoadedCartridge, show: boolean): Promise<CartridgeChange[]> {
	const changes: CartridgeChange[] = [];
	const names = [...new Set([...before.map(item => item.name), ...after.map(item => item.name)])].sort();
	for (const name of names) {
		const old = before.find(item => item.name === name);
		const current = after.find(item => item.name === name);
		if (old && current) {
			const differing = Object.keys({...old.digests, ...current.digests}).filter(key => old.digests[key] !== current.digests[key]);
			if (differing.length === 0) continue;
			changes.push({section, name, change: 'changed', detail: `${differing.join(', ')} differ`, lines: show ? lineDiff(await old.text(a), await current.text(b)).filter(line => !line.startsWith('  ')) : null});
		} else if (current) {
			changes.push({section, name, change: 'added', detail: 'only in the second', lines: show ? lineDiff('', await current.text(b)).filter(line => line.startsWith('+')) : null});
		} else if (old) {
			changes.push({section, name, change: 'removed', detail: 'only in the first', lines: show ? lineDiff(await old.text(a), '').filter(line => line.startsWith('-')) : null});
		}
	}
	return changes;
}

/** `hlab cartridge diff`: the structural difference of two loaded cartridges, section by section. */
export async function diffCartridges(a: LoadedCartridge, b: LoadedCartridge, options: {show: boolean}): Promise<CartridgeDiff> {
	const before = sections(a);
	const after = sections(b);
	const changes: CartridgeChange[] = [];
	for (const section of Object.keys(before) as CartridgeChange['section'][]) changes.push(...await compareSection(section, before[section], after[section], a, b, options.show));
	return {
		schema: 'harness-lab/cartridge-diff@1',
		before: {dir: a.dir, fingerprint: a.fingerprint.digest},
		after: {dir: b.dir, fingerprint: b.fingerprint.digest},
		harness_changed: a.fingerprint.digest !== b.fingerprint.digest,
		changes,
	};
}
