import {existsSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {runInGroup} from '../process/index.js';
import type {Bench, BenchResult, BenchSize} from './bench-result.js';
import {oneTurnMessages, oneTurnRequest} from './one-turn/config.js';
import {oneTurnContext, oneTurnPlan} from './one-turn/context.js';
import {clearAttempts, piscinaFloor, runPlan} from './one-turn/fixture.js';
import {alternate, median, round, spread} from './stats.js';

/** Ignored by git; promptfoo is installed here by the bench, never as a project dependency. */
const peerDir = resolve(import.meta.dirname, '../../bench/.peer');
const promptfooEntry = join(peerDir, 'node_modules/promptfoo/dist/src/entrypoint.js');
export const peerSizes = {tiny: {cases: 2, concurrency: 2, repetitions: 1}, full: {cases: 500, concurrency: 8, repetitions: 2}} as const;

/** Installs promptfoo into bench/.peer once; null when it is there, else why it could not be installed. */
async function installPeer(): Promise<string | null> {
	if (existsSync(promptfooEntry)) return null;
	const run = await runInGroup({argv: ['npm', 'install', '--prefix', peerDir, 'promptfoo', '--no-audit', '--no-fund'], timeoutMs: 300_000, stdoutLimit: 16 * 1024 * 1024, stderrLimit: 16 * 1024 * 1024});
	if (run.record.exit_code === 0 && existsSync(promptfooEntry)) return null;
	return `npm install --prefix bench/.peer promptfoo failed (${run.record.failure ?? `status ${run.record.exit_code}`}): ${run.stderr?.toString().trim().split('\n').at(-1) ?? ''}`;
}

/** `promptfoo eval` of `cases` tests of the one-turn prompt against the same endpoint, no cache, timed from spawn to exit. */
async function promptfoo(dir: string, url: string, cases: number, concurrency: number): Promise<number> {
	const config = join(dir, 'promptfooconfig.json');
	const output = join(dir, `promptfoo-${Math.random().toString(36).slice(2)}.json`);
	await writeFile(config, JSON.stringify({
		description: 'hlab bench peer',
		// A JSON list of messages is promptfoo's chat prompt: the same system and user messages the engine sends.
		prompts: [JSON.stringify(oneTurnMessages)],
		providers: [{id: `openai:chat:${oneTurnRequest.model}`, config: {apiBaseUrl: url, apiKey: 'none', tools: oneTurnRequest.tools}}],
		tests: Array.from({length: cases}, (_, index) => ({vars: {case: index}, assert: [{type: 'is-valid-openai-tools-call'}]})),
	}));
	const run = await runInGroup({
		argv: [process.execPath, promptfooEntry, 'eval', '-c', config, '-j', String(concurrency), '--no-cache', '--no-table', '--no-progress-bar', '--no-write', '-o', output],
		cwd: dir,
		env: {PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1', PROMPTFOO_CONFIG_DIR: join(dir, '.promptfoo'), OPENAI_API_KEY: 'none'},
		timeoutMs: 300_000, stdoutLimit: 64 * 1024 * 1024, stderrLimit: 64 * 1024 * 1024,
	});
	const text = await readFile(output, 'utf8').catch(() => null);
	const stats = text === null ? null : (JSON.parse(text) as {results?: {stats?: {successes?: number}}}).results?.stats;
	if (stats?.successes !== cases) throw new Error(`promptfoo passed ${stats?.successes ?? 'no'} of ${cases} cases (status ${run.record.exit_code}): ${run.stderr?.toString().slice(-1500)}`);
	return run.record.wall_ms;
}

export const peer: Bench = {
	name: 'peer',
	async run(size: BenchSize): Promise<BenchResult> {
		const {cases, concurrency, repetitions} = peerSizes[size];
		const context = await oneTurnContext();
		const plan = await oneTurnPlan(cases, concurrency);
		const hlabRun = async (): Promise<number> => {
			const run = await runPlan(context.dir, plan, cases);
			await clearAttempts(context.dir);
			return run.wallMs;
		};
		const skipped = size === 'tiny' ? 'promptfoo was not run (tiny size: it is installed and run only in full)' : await installPeer();
		const perCase = 'hlab per case: a workspace set up from the task files, an agent run in a worker thread with its journal, the independent grader, evidence export and a flushed ledger record. promptfoo per case: the same chat call, an is-valid-openai-tools-call assertion, a result row (no cache, nothing written to its database).';
		if (skipped !== null) {
			// Without the peer, the floor is the bare piscina pool, so the line still says something true.
			const samples = await alternate(repetitions, () => piscinaFloor(context.dir, context.endpoint.url, cases, concurrency), hlabRun);
			return {
				name: 'peer', figure: `${cases} one-turn cases: hlab wall time (peer NOT run)`,
				ratio: round(median(samples.measured) / median(samples.floor)),
				ratio_spread: spread(samples.measured.map((value, index) => round(value / samples.floor[index]!))),
				measured: {hlab_wall_ms: round(median(samples.measured), 0)}, floor: {piscina_wall_ms: round(median(samples.floor), 0)},
				floor_description: 'in place of the peer: the bare piscina floor of in-process-dispatch',
				repetitions, notes: `${skipped}. ${perCase}`, target: null,
			};
		}
		const samples = await alternate(repetitions, () => promptfoo(context.dir, context.endpoint.url, cases, concurrency), hlabRun);
		return {
			name: 'peer',
			figure: `${cases} one-turn cases at concurrency ${concurrency}: hlab eval --plan wall time against promptfoo eval`,
			ratio: round(median(samples.measured) / median(samples.floor)),
			ratio_spread: spread(samples.measured.map((value, index) => round(value / samples.floor[index]!))),
			measured: {hlab_wall_ms: round(median(samples.measured), 0)},
			floor: {promptfoo_wall_ms: round(median(samples.floor), 0)},
			floor_description: 'promptfoo eval (bench/.peer, not a project dependency) of the same cases against the same scripted endpoint at the same concurrency',
			repetitions,
			notes: `${perCase} hlab does more per case.`,
			target: null,
		};
	},
};
