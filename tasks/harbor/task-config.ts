import {parse} from 'smol-toml';
import {z} from 'zod';

/*
 * The part of Harbor's `task.toml` harness-lab reads; every other key (metadata, [task], [solution]) is ignored, as
 * Harbor ignores keys it does not know.
 *
 *   version = "1.0"
 *   [metadata]    author_name, difficulty, category, tags: not read (the title is the folder's name)
 *   [agent]       timeout_sec: the agent's deadline, unless the plan is frozen with --timeout
 *   [verifier]    timeout_sec: the verifier's own deadline; env: its variables (read when it runs, never kept in the plan)
 *   [environment] cpus, memory_mb (or the older memory = "2G"): recorded; memory becomes each process's limit
 */

/** Harbor's default for an agent's and a verifier's timeout (seconds). */
export const harborDefaultTimeoutSec = 600;

const Seconds = z.number().positive();

export const HarborTaskConfig = z.object({
	agent: z.object({timeout_sec: Seconds.optional()}).loose().optional(),
	verifier: z.object({timeout_sec: Seconds.optional(), env: z.record(z.string(), z.string()).optional()}).loose().optional(),
	environment: z.object({
		cpus: z.number().positive().optional(),
		memory_mb: z.number().positive().optional(),
		/** The older spelling, e.g. "2G" or "512M". */
		memory: z.string().optional(),
	}).loose().optional(),
}).loose();
export type HarborTaskConfig = z.infer<typeof HarborTaskConfig>;

/** The config parsed, or the one-line reason it cannot be. */
export function parseTaskConfig(text: string): {ok: true; config: HarborTaskConfig} | {ok: false; problem: string} {
	let value: unknown;
	try {
		value = parse(text);
	} catch (error) {
		return {ok: false, problem: `task.toml is not TOML: ${(error as Error).message.split('\n')[0]}`};
	}
	const parsed = HarborTaskConfig.safeParse(value);
	if (!parsed.success) return {ok: false, problem: `task.toml: ${parsed.error.issues.map(issue => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`};
	return {ok: true, config: parsed.data};
}

/** The variables [verifier] env gives the verifier; none when task.toml names none (or no longer parses). */
export function verifierEnvOf(taskToml: string): Record<string, string> {
	const parsed = parseTaskConfig(taskToml);
	return parsed.ok ? parsed.config.verifier?.env ?? {} : {};
}

/** Bytes of memory the task asks for (memory_mb, else the older memory string); null when it names none. */
export function memoryBytesOf(config: HarborTaskConfig): number | null {
	const environment = config.environment;
	if (environment?.memory_mb !== undefined) return Math.round(environment.memory_mb * 1024 ** 2);
	const match = /^(\d+(?:\.\d+)?)\s*([KMG])i?B?$/i.exec(environment?.memory?.trim() ?? '');
	if (match === null) return null;
	const unit = {K: 1024, M: 1024 ** 2, G: 1024 ** 3}[match[2]!.toUpperCase() as 'K' | 'M' | 'G'];
	return Math.round(Number(match[1]) * unit);
}
