import {readdir, readFile, stat} from 'node:fs/promises';
import {join} from 'node:path';
import type {z} from 'zod';
import {CaseFile, ContractConfig, issuesOf, Manifest, RuntimeConfig, ToolSpec} from './cartridge-files.js';

/** Collects every problem of a cartridge, so a broken one is reported whole rather than first-error-only. */
export class Problems {
	readonly list: string[] = [];

	add(...problems: string[]): void {
		this.list.push(...problems);
	}
}

/** The folder's files, parsed; a missing or invalid part is null and its problems are recorded. */
export interface CartridgeFiles {
	manifest: Manifest | null;
	config: ContractConfig | null;
	runtime: RuntimeConfig | null;
	prompt: string | null;
	tools: {folder: string; spec: ToolSpec | null}[];
	resources: string[];
	cases: {path: string; value: CaseFile | null}[];
	collectors: string[];
	graders: string[];
}

async function readText(dir: string, path: string, problems: Problems, optional = false): Promise<string | null> {
	try {
		return await readFile(join(dir, path), 'utf8');
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (optional && code === 'ENOENT') return null;
		problems.add(`${path}: ${code === 'ENOENT' ? 'missing' : `cannot be read (${code ?? (error as Error).message})`}`);
		return null;
	}
}

/** Parses YAML or JSON text and validates it; problems name the file. */
function parseWith<T extends z.ZodType>(path: string, text: string, schema: T, problems: Problems, parseYaml: (text: string) => unknown): z.infer<T> | null {
	let value: unknown;
	try {
		value = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
	} catch (error) {
		problems.add(`${path}: not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`);
		return null;
	}
	const parsed = schema.safeParse(value ?? {});
	if (!parsed.success) {
		problems.add(...issuesOf(path, parsed.error));
		return null;
	}
	return parsed.data;
}

async function entries(dir: string, path: string): Promise<{name: string; directory: boolean}[]> {
	try {
		const found = await readdir(join(dir, path), {withFileTypes: true});
		return found.map(entry => ({name: entry.name, directory: entry.isDirectory()})).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	} catch {
		return [];
	}
}

/** Reads every file of the layout; nothing runs. */
export async function readCartridgeFiles(dir: string, problems: Problems): Promise<CartridgeFiles> {
	const info = await stat(dir).catch(() => null);
	if (!info?.isDirectory()) {
		problems.add(`${dir}: not a cartridge folder (no such directory)`);
		return {manifest: null, config: null, runtime: null, prompt: null, tools: [], resources: [], cases: [], collectors: [], graders: []};
	}
	const text = async (path: string, optional = false): Promise<string | null> => readText(dir, path, problems, optional);
	// Loaded here, not at start-up: most hlab processes never read a cartridge, and yaml is ~70 modules (~20 ms).
	const {parse: parseYaml} = await import('yaml');
	const parse = <T extends z.ZodType>(path: string, fileText: string, schema: T): z.infer<T> | null => parseWith(path, fileText, schema, problems, parseYaml);
	const manifestText = await text('cartridge.json');
	const configText = await text('config.yaml');
	const runtimeText = await text('runtime.yaml', true);
	const prompt = await text('prompts/system.md');
	if (prompt !== null && prompt.trim() === '') problems.add('prompts/system.md: empty');

	const tools = [];
	for (const entry of await entries(dir, 'tools')) {
		if (!entry.directory) continue;
		const yamlText = await text(`tools/${entry.name}/tool.yaml`);
		const spec = yamlText === null ? null : parse(`tools/${entry.name}/tool.yaml`, yamlText, ToolSpec);
		if (spec && spec.name !== entry.name) problems.add(`tools/${entry.name}/tool.yaml: names the tool ${spec.name}; the folder and the name must agree`);
		tools.push({folder: entry.name, spec});
	}
	const cases = [];
	for (const entry of await entries(dir, 'evals/cases')) {
		if (entry.directory || !entry.name.endsWith('.json')) continue;
		const path = `evals/cases/${entry.name}`;
		const caseText = await text(path);
		const value = caseText === null ? null : parse(path, caseText, CaseFile);
		if (value && `${value.id}.json` !== entry.name) problems.add(`${path}: its id is ${value.id}; the file must be named ${value.id}.json`);
		cases.push({path, value});
	}
	const evals = await entries(dir, 'evals');
	const typescript = (prefix: string): string[] => evals.filter(entry => !entry.directory && entry.name.startsWith(prefix) && entry.name.endsWith('.ts')).map(entry => `evals/${entry.name}`);
	return {
		manifest: manifestText === null ? null : parse('cartridge.json', manifestText, Manifest),
		config: configText === null ? null : parse('config.yaml', configText, ContractConfig),
		runtime: runtimeText === null ? {} : parse('runtime.yaml', runtimeText, RuntimeConfig),
		prompt,
		tools,
		resources: (await entries(dir, 'resources')).filter(entry => !entry.directory && entry.name.endsWith('.ts')).map(entry => entry.name.slice(0, -3)),
		cases,
		collectors: typescript('collect_'),
		graders: typescript('eval_'),
	};
}
