import {existsSync} from 'node:fs';
import {readFile, rm, writeFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import {runInGroup} from '../process/index.js';
import type {Bench, BenchResult, BenchSize} from './bench-result.js';
import {oneTurnMessages, oneTurnRequest} from './one-turn/config.js';
import {oneTurnContext, stubPlan} from './one-turn/context.js';
import {clearAttempts, ProcessSampler, runPlan, type AttemptRun} from './one-turn/fixture.js';
import {httpFloor} from './one-turn/stub.js';
import {median, round, spread} from './stats.js';

/** Ignored by git; promptfoo is installed here by the bench, never as a project dependency. */
const peerDir = resolve(import.meta.dirname, '../../bench/.peer');
const promptfooEntry = join(peerDir, 'node_modules/promptfoo/dist/src/entrypoint.js');
/** The peer pinned, so that two runs of the bench compare hlab with the same promptfoo (0.123.1 is 31% faster than the one of 2026-11-30). */
const promptfooVersion = '0.123.1';
export const peerSizes = {tiny: {cases: 2, concurrency: 2, repetitions: 1}, full: {cases: 500, concurrency: 8, repetitions: 2}} as const;

/** Installs the pinned promptfoo into bench/.peer once; null when it is there, else why it could not be installed. */
async function installPeer(): Promise<string | null> {
	if (existsSync(promptfooEntry) && await installedVersion() === promptfooVersion) return null;
	const run = await runInGroup({argv: ['npm', 'install', '--prefix', peerDir, `promptfoo@${promptfooVersion}`, '--no-audit', '--no-fund'], deadlineMs: 300_000, stdoutLimit: 16 * 1024 * 1024, stderrLimit: 16 * 1024 * 1024});
	if (run.record.exit_code === 0 && existsSync(promptfooEntry)) return null;
	return `npm install --prefix bench/.peer promptfoo@${promptfooVersion} failed (${run.record.failure ?? `status ${run.record.exit_code}`}): ${run.stderr?.toString().trim().split('\n').at(-1) ?? ''}`;
}

/** The version of the promptfoo in bench/.peer; null when none is there. */
async function installedVersion(): Promise<string | null> {
	const text = await readFile(join(peerDir, 'node_modules/promptfoo/package.json'), 'utf8').catch(() => null);
	return text === null ? null : (JSON.parse(text) as {version?: string}).version ?? null;
}

/** One promptfoo run: its wall time from spawn to exit and its process's peak RSS. */
interface PeerRun {
	wallMs: number;
	peakRssMiB: number | null;
}

/** `promptfoo eval` of `cases` tests of the one-turn prompt against the stub, no cache, timed from spawn to exit. */
async function promptfoo(dir: string, url: string, cases: number, concurrency: number): Promise<PeerRun> {
	const config = join(dir, 'promptfooconfig.json');
	const output = join(dir, `promptfoo-${Math.random().toString(36).slice(2)}.json`);
	await writeFile(config, JSON.stringify({
		description: 'hlab bench peer',
		// A JSON list of messages is promptfoo's chat prompt: the same system and user messages the engine sends.
		prompts: [JSON.stringify(oneTurnMessages)],
		providers: [{id: 'openai:chat:stub', config: {apiBaseUrl: url, apiKey: 'none', tools: oneTurnRequest.tools}}],
		tests: Array.from({length: cases}, (_, index) => ({vars: {case: index}, assert: [{type: 'is-valid-openai-tools-call'}]})),
	}));
	const sampler = new ProcessSampler();
	try {
		const run = await runInGroup({
			argv: [process.execPath, promptfooEntry, 'eval', '-c', config, '-j', String(concurrency), '--no-cache', '--no-table', '--no-progress-bar', '--no-write', '-o', output],
			cwd: dir,
			env: {PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1', PROMPTFOO_CONFIG_DIR: join(dir, '.promptfoo'), OPENAI_API_KEY: 'none'},
			deadlineMs: 300_000, stdoutLimit: 64 * 1024 * 1024, stderrLimit: 64 * 1024 * 1024, onSpawn: sampler.onSpawn,
		});
		const text = await readFile(output, 'utf8').catch(() => null);
		const stats = text === null ? null : (JSON.parse(text) as {results?: {stats?: {successes?: number}}}).results?.stats;
		if (stats?.successes !== cases) throw new Error(`promptfoo passed ${stats?.successes ?? 'no'} of ${cases} cases (status ${run.record.exit_code}): ${run.stderr?.toString().slice(-1500)}`);
		return {wallMs: run.record.wall_ms, peakRssMiB: sampler.peakRssMiB};
	} finally {
		sampler.stop();
		await rm(output, {force: true});
	}
}

interface Samples {
	hlab: AttemptRun[];
	peer: PeerRun[];
	floor: number[];
}

/** Each round runs the three sides in a rotated order, so load on a shared machine falls on all of them alike. */
async function rounds(repetitions: number, sides: {hlab(): Promise<AttemptRun>; peer: (() => Promise<PeerRun>) | null; floor(): Promise<number>}): Promise<Samples> {
	const samples: Samples = {hlab: [], peer: [], floor: []};
	const steps = [
		async () => samples.floor.push(await sides.floor()),
		async () => samples.hlab.push(await sides.hlab()),
		async () => { if (sides.peer) samples.peer.push(await sides.peer()); },
	];
	for (let round = 0; round < repetitions; round += 1) {
		for (let step = 0; step < steps.length; step += 1) await steps[(step + round) % steps.length]!();
	}
	return samples;
}

const peak = (runs: Array<{peakRssMiB: number | null}>): number => {
	const peaks = runs.flatMap(run => (run.peakRssMiB === null ? [] : [run.peakRssMiB]));
	return peaks.length === 0 ? -1 : round(Math.max(...peaks));
};

const perCase = 'Both sides call the same plain stub (stub.ts: a constant done answer, no tokenizer) with the same messages and tools. hlab per case: a workspace set up from the task files, an agent run in a worker thread with its journal, the independent grader, evidence export and a flushed ledger record; per attempt: node start-up, admission and the attempt record. promptfoo per case: the chat call, an is-valid-openai-tools-call assertion and a result row (no cache, nothing written to its database). The raw HTTP floor is the same requests at the same concurrency from one thread of the bench process. Peak RSS is each process\'s VmHWM from /proc.';

export const peer: Bench = {
	name: 'peer',
	async run(size: BenchSize): Promise<BenchResult> {
		const {cases, concurrency, repetitions} = peerSizes[size];
		const context = await oneTurnContext();
		const plan = await stubPlan(cases, concurrency);
		const skipped = size === 'tiny' ? 'promptfoo was not run (tiny size: it is installed and run only in full)' : await installPeer();
		const samples = await rounds(repetitions, {
			hlab: async () => {
				const run = await runPlan(context.dir, plan, cases);
				await clearAttempts(context.dir);
				return run;
			},
			peer: skipped === null ? () => promptfoo(context.dir, context.stub.url, cases, concurrency) : null,
			floor: () => httpFloor(context.dir, context.stub.url, cases, concurrency, false),
		});
		const hlabWall = median(samples.hlab.map(run => run.wallMs));
		const rawFloor = median(samples.floor);
		const cpus = samples.hlab.flatMap(run => (run.cpuMs === null ? [] : [run.cpuMs]));
		const hlabFigures = {hlab_wall_ms: round(hlabWall, 0), hlab_cpu_ms: cpus.length === 0 ? -1 : median(cpus), hlab_peak_rss_mib: peak(samples.hlab), hlab_over_raw_http: round(hlabWall / rawFloor)};
		if (skipped !== null) {
			// Without the peer, the floor is the raw HTTP floor, so the line still says something true.
			return {
				name: 'peer', figure: `${cases} one-turn cases on the plain stub: hlab wall time over the raw HTTP floor (peer NOT run)`,
				ratio: round(hlabWall / rawFloor),
				ratio_spread: spread(samples.hlab.map((run, index) => round(run.wallMs / samples.floor[index]!))),
				measured: hlabFigures, floor: {raw_http_wall_ms: round(rawFloor, 0)},
				floor_description: 'in place of the peer: the same requests at the same concurrency from one thread of the bench process',
				repetitions, notes: `${skipped}. ${perCase}`, target: null,
			};
		}
		const peerWall = median(samples.peer.map(run => run.wallMs));
		const ratio = round(hlabWall / peerWall);
		const rss = peak(samples.hlab) / peak(samples.peer);
		return {
			name: 'peer',
			figure: `${cases} one-turn cases at concurrency ${concurrency} on the plain stub: hlab eval --plan (OpenAI-compatible provider) wall time against promptfoo eval`,
			ratio,
			ratio_spread: spread(samples.hlab.map((run, index) => round(run.wallMs / samples.peer[index]!.wallMs))),
			measured: {...hlabFigures, hlab_rss_over_promptfoo: round(rss)},
			floor: {promptfoo_wall_ms: round(peerWall, 0), promptfoo_peak_rss_mib: peak(samples.peer), raw_http_wall_ms: round(rawFloor, 0)},
			floor_description: `promptfoo ${promptfooVersion} eval (bench/.peer, not a project dependency) of the same cases against the same stub at the same concurrency; beside it the raw HTTP floor`,
			repetitions,
			notes: `${perCase} hlab does more per case.`,
			target: {description: 'hlab within 0.5× of promptfoo\'s wall time and 1.0× of its peak RSS', met: ratio <= 0.5 && rss <= 1},
		};
	},
};
