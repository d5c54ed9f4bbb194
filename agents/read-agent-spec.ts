import {readFile, stat} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import {describeIssues} from '../controller-protocol/index.js';
import {AdapterId} from './adapter-id.js';
import {adapters} from './adapters/index.js';
import {AgentSpec} from './agent-spec.js';

/** A spec read from its file, with the folder its relative paths start from. */
export interface LoadedSpec {
	spec: AgentSpec;
	path: string;
	dir: string;
}

/** Why a spec cannot be used: `unreadable` (no such file, not JSON or YAML) or `invalid` (the schema or an adapter refused it). */
export interface SpecRefusal {
	reason: 'unreadable' | 'invalid';
	/** One line that names the file and the field. */
	message: string;
}

export type SpecResult = {ok: true; loaded: LoadedSpec} | ({ok: false} & SpecRefusal);

/** Reads and checks an agent spec; a refusal is a value, so the command line decides how it exits. */
export async function readAgentSpec(file: string): Promise<SpecResult> {
	const path = resolve(file);
	const value = await parseFile(path);
	if ('reason' in value) return {ok: false, ...value};
	const checked = checkSpec(value.json);
	if (typeof checked === 'string') return {ok: false, reason: 'invalid', message: `${path}: ${checked}`};
	const missing = await missingFile(checked, dirname(path));
	if (missing !== null) return {ok: false, reason: 'invalid', message: `${path}: ${missing}`};
	return {ok: true, loaded: {spec: checked, path, dir: dirname(path)}};
}

/** The files a spec names beside itself are there: a prompt the agent would silently run without is no prompt. */
async function missingFile(spec: AgentSpec, dir: string): Promise<string | null> {
	const prompt = spec.config.system_prompt_file;
	if (prompt !== undefined && !(await stat(join(dir, prompt)).catch(() => null))?.isFile()) return `config.system_prompt_file: ${prompt} is not a file beside the spec`;
	if (spec.adapter !== 'command' || spec.package !== undefined) return null;
	const executable = await stat(join(dir, spec.executable)).catch(() => null);
	if (!executable?.isFile() || (executable.mode & 0o111) === 0) return `executable: ${spec.executable} is not an executable file beside the spec`;
	return null;
}

async function parseFile(path: string): Promise<{json: unknown} | SpecRefusal> {
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		return {reason: 'unreadable', message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`};
	}
	const yaml = /\.ya?ml$/.test(path);
	try {
		// yaml is imported only for a YAML spec: most hlab processes never read one, and it is ~70 modules (~20 ms).
		return {json: yaml ? (await import('yaml')).parse(text) : JSON.parse(text)};
	} catch (error) {
		return {reason: 'unreadable', message: `${path} is not valid ${yaml ? 'YAML' : 'JSON'}: ${(error as Error).message.split('\n')[0]}`};
	}
}

/** The spec, or one line saying what is wrong with it. */
export function checkSpec(json: unknown): AgentSpec | string {
	const adapter = (json as {adapter?: unknown} | null)?.adapter;
	// Named first: with an unknown adapter every other field's issue would be noise.
	if (!AdapterId.safeParse(adapter).success) return `adapter: ${adapter === undefined ? 'missing' : JSON.stringify(adapter)}: must be one of ${AdapterId.options.join(', ')}`;
	const parsed = AgentSpec.safeParse(json);
	if (!parsed.success) return describeIssues(parsed.error);
	return adapterRefusal(parsed.data) ?? parsed.data;
}

/** What the schema cannot say: the adapter's own flags stay its own, and a command names something it can run. */
function adapterRefusal(spec: AgentSpec): string | null {
	const reserved = adapters[spec.adapter].reservedFlags;
	const taken = spec.flags.find(flag => reserved.includes(flag.split('=')[0]!));
	if (taken !== undefined) return `flags: ${taken.split('=')[0]} is set by the ${spec.adapter} adapter itself`;
	if (spec.adapter === 'command' && spec.package === undefined && (spec.executable.startsWith('/') || spec.executable.split('/').includes('..'))) {
		return 'executable: without a package, a path inside the spec\'s folder (relative, no ..)';
	}
	if (spec.adapter === 'command' && spec.package !== undefined && spec.executable.includes('/')) return 'executable: with a package, one of its bin names';
	return null;
}
