import {readFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {z} from 'zod';
import {InputError} from '../input-error.js';
import {describeIssues} from '../../controller-protocol/index.js';

export const configFileName = 'harness-lab.config.json';

/** The composition of the harness under test: which module slots are active. `candidate` is the slot a candidate fills. */
export const defaultModules = ['engine.loop', 'engine.tools', 'candidate'];

export const Configuration = z.object({
	composition: z.object({modules: z.array(z.string().min(1))}).default({modules: defaultModules}),
}).loose();
export type Configuration = z.infer<typeof Configuration>;

export interface LoadedConfiguration {
	/** Absolute path of the file read, or null when none exists and defaults apply. */
	path: string | null;
	value: Configuration;
}

export class ConfigurationError extends InputError {
	readonly reason = 'configuration';
}

/** Reads `--config FILE`, else `harness-lab.config.json` in `cwd` when present, else the defaults. */
export async function loadConfiguration(explicit: string | null, cwd = process.cwd()): Promise<LoadedConfiguration> {
	const path = explicit === null ? join(cwd, configFileName) : resolve(cwd, explicit);
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		if (explicit === null && (error as NodeJS.ErrnoException).code === 'ENOENT') return {path: null, value: Configuration.parse({})};
		throw new ConfigurationError(`cannot read configuration ${path}: ${(error as Error).message}`);
	}
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		throw new ConfigurationError(`configuration ${path} is not JSON: ${(error as Error).message}`);
	}
	const parsed = Configuration.safeParse(json);
	if (!parsed.success) throw new ConfigurationError(`configuration ${path} is invalid: ${describeIssues(parsed.error)}`);
	return {path, value: parsed.data};
}
