import {resolve} from 'node:path';
import {compileCandidate, EngineError, sdkDigest} from '../engine/index.js';
import {digestBytes, digestJson} from '../files/digest.js';
import {fingerprintHarness} from '../harness/index.js';
import {cartridgeHarness, expandParameters, validatorOf} from './cartridge-harness.js';
import {ListAnswer} from './evaluation-protocol.js';
import type {CompiledSource, LoadedCartridge, LoadedCase, LoadedEvalModule, LoadedTool} from './loaded-cartridge.js';
import {Problems, readCartridgeFiles, type CartridgeFiles} from './read-cartridge.js';
import {runEvaluation} from './run-evaluation.js';

export type LoadResult = {ok: true; cartridge: LoadedCartridge} | {ok: false; problems: string[]};

/**
 * Loads a cartridge folder: reads and validates every file, compiles its TypeScript (Node builtins and the SDK
 * only, like a candidate), lists what the eval modules export (in an evaluation process, never here), and builds
 * the Harness. A broken cartridge gets all its problems, not the first.
 */
export async function loadCartridge(folder: string): Promise<LoadResult> {
	const dir = resolve(folder);
	const problems = new Problems();
	const files = await readCartridgeFiles(dir, problems);
	const compiled = await compileAll(dir, files, problems);
	const tools = loadTools(files, compiled, problems);
	checkReferences(files, problems);
	const evals = await listEvals(dir, files, compiled, problems);
	const cases = loadCases(files, problems);
	if (problems.list.length > 0 || !files.manifest || !files.config || files.runtime === null || files.prompt === null || !tools || !evals) return {ok: false, problems: problems.list};
	const harness = cartridgeHarness(files.manifest, files.config, files.prompt, tools);
	if (!harness.ok) return {ok: false, problems: [harness.problem]};
	const resources = files.resources.map(name => ({name, build: compiled.get(`resources/${name}.ts`)!}));
	const suite = {
		cases: cases.map(entry => ({id: entry.id, digest: entry.digest, expected: entry.expected_digest})),
		collectors: evals.collectors.map(entry => ({path: entry.source.path, source: entry.source.source_digest})),
		graders: evals.graders.map(entry => ({path: entry.source.path, source: entry.source.source_digest, exports: entry.exports})),
	};
	return {
		ok: true,
		cartridge: {
			schema: 'harness-lab/loaded-cartridge@1',
			dir,
			manifest: files.manifest,
			config: files.config,
			runtime: files.runtime,
			prompt: {path: 'prompts/system.md', text: files.prompt, digest: digestBytes(files.prompt)},
			tools,
			resources,
			cases,
			collectors: evals.collectors,
			graders: evals.graders,
			harness: harness.harness,
			fingerprint: fingerprintHarness(harness.harness),
			digests: {
				manifest: digestJson(files.manifest),
				config: digestJson(files.config),
				runtime: digestJson(files.runtime),
				prompt: digestBytes(files.prompt),
				suite: digestJson(suite),
				sdk: sdkDigest(),
			},
		},
	};
}

/** Every TypeScript file of the cartridge, compiled; a file that does not compile is a problem. */
async function compileAll(dir: string, files: CartridgeFiles, problems: Problems): Promise<Map<string, CompiledSource>> {
	const paths = [
		...files.tools.map(tool => `tools/${tool.folder}/execute.ts`),
		...files.resources.map(name => `resources/${name}.ts`),
		...files.collectors,
		...files.graders,
	];
	const compiled = new Map<string, CompiledSource>();
	await Promise.all(paths.map(async path => {
		try {
			const snapshot = await compileCandidate(resolve(dir, path));
			compiled.set(path, {path, source_digest: snapshot.source_digest, code_digest: snapshot.code_digest, code: snapshot.code});
		} catch (error) {
			if (!(error instanceof EngineError)) throw error;
			problems.add(`${path}: ${error.message.replace(/^cannot (read|compile) candidate \S+: /, 'cannot $1: ')}`);
		}
	}));
	return compiled;
}

/** The tools with their schemas made whole and their implementation ids bound to their code and resources. */
function loadTools(files: CartridgeFiles, compiled: Map<string, CompiledSource>, problems: Problems): LoadedTool[] | null {
	const tools: LoadedTool[] = [];
	for (const {folder, spec} of files.tools) {
		const execute = compiled.get(`tools/${folder}/execute.ts`);
		if (!spec || !execute) continue;
		const parameters = expandParameters(spec.parameters);
		const validator = validatorOf(parameters);
		if (!validator.ok) problems.add(`tools/${folder}/tool.yaml: parameters: not a JSON Schema this engine can validate with: ${validator.problem}`);
		const requires = spec.requires.map(name => ({name, source: compiled.get(`resources/${name}.ts`)?.source_digest ?? null}));
		// Sources and the SDK they compile against: the compiled code also holds path comments, which a moved folder changes.
		const binding = digestJson({execute: execute.source_digest, requires, sdk: sdkDigest()}).slice('sha256:'.length);
		tools.push({
			name: spec.name,
			description: spec.description,
			parameters: parameters as LoadedTool['parameters'],
			requires: spec.requires,
			implementation: `cartridge:${spec.name}.${binding}`,
			definition_digest: digestJson({name: spec.name, description: spec.description, parameters, requires: spec.requires}),
			execute,
		});
	}
	return tools.length === files.tools.length ? tools : null;
}

/** Names that must lead somewhere: required resources, enabled tools, the done tool. */
function checkReferences(files: CartridgeFiles, problems: Problems): void {
	const toolNames = files.tools.map(tool => tool.spec?.name ?? tool.folder);
	for (const {folder, spec} of files.tools) {
		for (const name of spec?.requires ?? []) {
			if (!files.resources.includes(name)) problems.add(`tools/${folder}/tool.yaml: requires ${name}, but there is no resources/${name}.ts`);
		}
	}
	if (!files.config) return;
	const done = files.config.done_tool;
	if (toolNames.includes(done)) problems.add(`tools/${done}: ${done} is the done tool (config.yaml done_tool), which the engine provides; remove the folder or name another done_tool`);
	for (const name of files.config.tools ?? []) {
		if (name !== done && !toolNames.includes(name)) problems.add(`config.yaml: tools: ${name} is not a tool of this cartridge`);
	}
}

/** What each collector and grader module exports (names and marks), read in an evaluation process. */
async function listEvals(dir: string, files: CartridgeFiles, compiled: Map<string, CompiledSource>, problems: Problems): Promise<{collectors: LoadedEvalModule[]; graders: LoadedEvalModule[]} | null> {
	const modules = [
		...files.collectors.map(path => ({path, kind: 'collector' as const})),
		...files.graders.map(path => ({path, kind: 'grader' as const})),
	].flatMap(entry => {
		const source = compiled.get(entry.path);
		return source ? [{...entry, source}] : [];
	});
	if (files.graders.length === 0) problems.add('evals/: no grader (evals/eval_*.ts)');
	if (modules.length === 0) return {collectors: [], graders: []};
	const run = await runEvaluation({mode: 'list', modules: modules.map(entry => ({path: entry.path, kind: entry.kind, code: entry.source.code}))}, ListAnswer, {cwd: dir});
	if (!run.ok) {
		problems.add(`evals/: ${run.problem}`);
		return null;
	}
	const listed = new Map(run.answer.modules.map(entry => [entry.path, entry]));
	for (const entry of run.answer.modules) problems.add(...entry.problems);
	const loaded = (kind: 'collector' | 'grader'): LoadedEvalModule[] => modules.filter(entry => entry.kind === kind)
		.map(entry => ({source: entry.source, exports: listed.get(entry.path)?.exports ?? []}));
	return {collectors: loaded('collector'), graders: loaded('grader')};
}

function loadCases(files: CartridgeFiles, problems: Problems): LoadedCase[] {
	if (files.cases.length === 0) problems.add('evals/cases/: no case');
	return files.cases.flatMap(({path, value}) => (value ? [{
		id: value.id,
		path,
		case: value,
		digest: digestJson(value),
		expected_digest: digestJson(value.expected ?? null),
	}] : []));
}
