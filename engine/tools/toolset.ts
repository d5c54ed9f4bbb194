import {canonicalJson} from '../../files/canonical-json.js';
import type {Harness, HarnessTool} from '../../harness/harness-schema.js';
import {enabledTools, offeredTools} from '../../harness/offered-tools.js';
import {toolParameters} from '../../harness/tool-parameters.js';
import type {ToolDefinition} from '../../sdk/plugin.js';
import {EngineError} from '../engine-error.js';
import {toolImplementations, type ToolImplementation} from './implementations.js';

/** An enabled tool with the implementation that runs it. */
export interface BoundTool {
	tool: HarnessTool;
	implementation: ToolImplementation;
}

/** A harness's enabled tools, each bound to its implementation: what the loop offers, validates and dispatches. */
export class Toolset {
	/** The definitions every request offers, generated from the harness. */
	readonly definitions: ToolDefinition[];
	private readonly byName: Map<string, BoundTool>;

	constructor(harness: Harness, bound: BoundTool[]) {
		this.definitions = offeredTools(harness);
		this.byName = new Map(bound.map(entry => [entry.tool.name, entry]));
	}

	/** The enabled tool of that name; a tool the harness defines but does not enable is not found. */
	find(name: string): BoundTool | undefined {
		return this.byName.get(name);
	}

	/** The enabled names for a message to the model: `a, b and c`. */
	describeNames(): string {
		const names = [...this.byName.keys()];
		if (names.length === 0) return 'no tools are enabled';
		const last = names.pop()!;
		return `the tools are ${names.length > 0 ? `${names.join(', ')} and ${last}` : last}`;
	}
}

/**
 * Binds each enabled tool to its implementation. An implementation this engine lacks is `missing_tool`; a tool whose
 * parameters are not its implementation's argument schema is `init`, because calls would be validated by a schema
 * the model was never shown. `extra` adds implementations a caller brings (a cartridge's tools).
 */
export function bindTools(harness: Harness, extra: ReadonlyMap<string, ToolImplementation> = new Map()): Toolset {
	const bound = enabledTools(harness).map(tool => {
		const implementation = extra.get(tool.implementation) ?? toolImplementations.get(tool.implementation);
		if (implementation === undefined) throw new EngineError('missing_tool', `tool ${tool.name} is bound to ${tool.implementation}, which this engine does not implement`);
		const parameters = implementation.kind === 'action' && implementation.parameters ? canonicalJson(implementation.parameters) : implementationParameters(tool.implementation, implementation);
		if (canonicalJson(tool.parameters) !== parameters) {
			throw new EngineError('init', `tool ${tool.name}: its parameters are not the argument schema of ${tool.implementation}, which validates its calls`);
		}
		return {tool, implementation};
	});
	return new Toolset(harness, bound);
}

const generated = new Map<string, string>();

/** The canonical JSON of an implementation's argument schema, generated once per implementation. */
function implementationParameters(id: string, implementation: ToolImplementation): string {
	let text = generated.get(id);
	if (text === undefined) {
		text = canonicalJson(toolParameters(implementation.args));
		generated.set(id, text);
	}
	return text;
}
