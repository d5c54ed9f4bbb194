import type {LoadedCartridge} from './loaded-cartridge.js';

/** Everything a loaded cartridge is, without its compiled code: what `hlab cartridge describe --json` prints. */
export function describeCartridge(cartridge: LoadedCartridge): object {
	const source = (entry: {path: string; source_digest: string; code_digest: string}): object => ({path: entry.path, source_digest: entry.source_digest, code_digest: entry.code_digest});
	return {
		schema: 'harness-lab/cartridge-description@1',
		dir: cartridge.dir,
		manifest: cartridge.manifest,
		config: cartridge.config,
		runtime: cartridge.runtime,
		prompt: {path: cartridge.prompt.path, digest: cartridge.prompt.digest, chars: cartridge.prompt.text.length},
		harness: {name: cartridge.harness.name, fingerprint: cartridge.fingerprint, enabled_tools: cartridge.harness.enabled_tools, limits: cartridge.harness.limits},
		tools: cartridge.tools.map(tool => ({
			name: tool.name,
			description: tool.description,
			parameters: tool.parameters,
			requires: tool.requires,
			implementation: tool.implementation,
			definition_digest: tool.definition_digest,
			execute: source(tool.execute),
		})),
		resources: cartridge.resources.map(resource => ({name: resource.name, build: source(resource.build)})),
		cases: cartridge.cases.map(entry => ({id: entry.id, marks: entry.case.marks, seeded_files: Object.keys(entry.case.task.files ?? {}), has_expected: entry.case.expected !== undefined, digest: entry.digest, expected_digest: entry.expected_digest})),
		collectors: cartridge.collectors.map(module => ({...source(module.source), functions: module.exports.map(entry => entry.name)})),
		graders: cartridge.graders.map(module => ({...source(module.source), graders: module.exports})),
		digests: cartridge.digests,
	};
}

const short = (digest: string): string => digest.replace(/^sha256:/, '').slice(0, 12);

/** The same, for people. */
export function renderDescription(cartridge: LoadedCartridge): string {
	const lines = [
		`cartridge  ${cartridge.manifest.name} (schema_version ${cartridge.manifest.schema_version})${cartridge.manifest.description ? `: ${cartridge.manifest.description}` : ''}`,
		`folder     ${cartridge.dir}`,
		`harness    fingerprint ${cartridge.fingerprint.digest}`,
		`contract   ${Object.entries(cartridge.config).map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(' ')}  (config.yaml ${short(cartridge.digests.config)})`,
		`runtime    ${JSON.stringify(cartridge.runtime)}  (runtime.yaml ${short(cartridge.digests.runtime)}; not part of the contract)`,
		`prompt     ${cartridge.prompt.path} ${short(cartridge.prompt.digest)} (${cartridge.prompt.text.length} chars)`,
		`tools      offered: ${cartridge.harness.enabled_tools.join(', ')} (${cartridge.config.done_tool} is the engine's done tool)`,
		...cartridge.tools.flatMap(tool => [
			`  ${tool.name}: ${tool.description}`,
			`    parameters ${JSON.stringify(tool.parameters)}`,
			`    requires ${tool.requires.join(', ') || 'nothing'}; definition ${short(tool.definition_digest)}, source ${short(tool.execute.source_digest)}`,
		]),
		`resources  ${cartridge.resources.map(resource => `${resource.name} (${short(resource.build.source_digest)})`).join(', ') || 'none'}`,
		`cases      ${cartridge.cases.length}`,
		...cartridge.cases.map(entry => `  ${entry.id}  marks: ${entry.case.marks.join(', ') || 'none'}${entry.case.task.files ? `; seeds ${Object.keys(entry.case.task.files).join(', ')}` : ''}; ${short(entry.digest)}`),
		`collectors ${cartridge.collectors.length}`,
		...cartridge.collectors.map(module => `  ${module.source.path}: ${module.exports.map(entry => entry.name).join(', ')} (${short(module.source.source_digest)})`),
		`graders    ${cartridge.graders.reduce((count, module) => count + module.exports.length, 0)}`,
		...cartridge.graders.flatMap(module => module.exports.map(entry => `  ${module.source.path}#${entry.name}  marks: ${entry.marks.join(', ') || 'none'}${entry.asks_model ? ' (asks a model: --judge)' : ''} (${short(module.source.source_digest)})`)),
		`suite      ${cartridge.digests.suite}`,
	];
	return `${lines.join('\n')}\n`;
}
