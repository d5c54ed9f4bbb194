import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {installRoot} from '../../files/install-root.js';

/** One fenced block of a page: its language, the attributes of its info string, its text and where it starts. */
export interface FencedBlock {
	page: string;
	line: number;
	lang: string;
	attributes: Record<string, string>;
	text: string;
}

/** The pages whose examples are the documentation: README.md and every docs/*.md, by their path from the checkout. */
export function documentationPages(): string[] {
	const docs = readdirSync(join(installRoot, 'docs')).filter(name => name.endsWith('.md')).sort().map(name => `docs/${name}`);
	return ['README.md', ...docs];
}

export function readPage(page: string): string {
	return readFileSync(join(installRoot, page), 'utf8');
}

/** Every ``` fence of a page, in order. An info string is `lang key=value key="a value" flag ...`. */
export function fencedBlocks(page: string, text = readPage(page)): FencedBlock[] {
	const lines = text.split('\n');
	const blocks: FencedBlock[] = [];
	for (let index = 0; index < lines.length; index += 1) {
		const open = /^```(\S*)\s*(.*)$/.exec(lines[index]!);
		if (open === null) continue;
		const start = index;
		const body: string[] = [];
		for (index += 1; index < lines.length && lines[index] !== '```'; index += 1) body.push(lines[index]!);
		blocks.push({page, line: start + 1, lang: open[1]!, attributes: infoAttributes(open[2]!), text: body.join('\n')});
	}
	return blocks;
}

function infoAttributes(info: string): Record<string, string> {
	const attributes: Record<string, string> = {};
	for (const match of info.matchAll(/([\w-]+)(?:=(?:"([^"]*)"|(\S+)))?/g)) attributes[match[1]!] = match[2] ?? match[3] ?? '';
	return attributes;
}
