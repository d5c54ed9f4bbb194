import {z} from 'zod';
import {pluginProtocolVersion, type CapabilityId, type PluginInitializeContext, type RuntimePlugin} from '../../sdk/plugin.js';
import {EngineError} from '../engine-error.js';
import {capabilityCatalog} from './capability-catalog.js';
import type {LoadedCapability, LoadedPlugin, PluginOrigin} from './loaded-plugin.js';
import {describeIssues} from '../../controller-protocol/describe-issues.js';

export const pluginIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const Declaration = z.object({
	id: z.enum(capabilityCatalog.map(entry => entry.id) as [CapabilityId, ...CapabilityId[]]),
	kind: z.enum(['decision', 'transform']),
	version: z.literal(1),
	priority: z.number().finite().optional(),
	on_error: z.enum(['continue', 'stop', 'fail']).optional(),
});

const InitializeResult = z.object({
	protocol_version: z.literal(pluginProtocolVersion),
	id: z.string().regex(pluginIdPattern, 'letters, digits, ".", "_" or "-"').optional(),
	capabilities: z.array(Declaration),
});

/** Problems with a module's default export as a RuntimePlugin; empty when its shape is right. */
export function pluginShapeProblems(value: unknown): string[] {
	if (value === null || typeof value !== 'object') return ['the default export must be an object implementing RuntimePlugin'];
	const problems: string[] = [];
	const plugin = value as Record<string, unknown>;
	if (typeof plugin.initialize !== 'function') problems.push('the default export has no initialize() function');
	if (typeof plugin.invokeCapability !== 'function') problems.push('the default export has no invokeCapability() function');
	if (plugin.ready !== undefined && typeof plugin.ready !== 'function') problems.push('ready, when present, must be a function');
	return problems;
}

export const hostVersion = '0.1.0';

function initializeContext(): PluginInitializeContext {
	return {
		protocol_version: pluginProtocolVersion,
		host: {name: 'harness-lab', version: hostVersion},
		offered: capabilityCatalog.map(({id, kind, version}) => ({id, kind, version})),
	};
}

/**
 * Activates a plugin object: checks its shape, calls `initialize()`, checks the declared capabilities against the
 * catalog, then checks readiness. Every failure is an `init` EngineError; nothing falls back.
 */
export async function activatePlugin(value: unknown, options: {defaultId: string; origin: PluginOrigin}): Promise<LoadedPlugin> {
	const problems = pluginShapeProblems(value);
	if (problems.length > 0) throw new EngineError('init', problems.join('; '));
	const plugin = value as RuntimePlugin;
	let answer: unknown;
	try {
		answer = await plugin.initialize(initializeContext());
	} catch (error) {
		throw new EngineError('init', `initialize() threw: ${error instanceof Error ? error.message : String(error)}`, {cause: error});
	}
	const parsed = InitializeResult.safeParse(answer);
	if (!parsed.success) {
		throw new EngineError('init', `initialize() answered an invalid result: ${describeIssues(parsed.error, {root: 'result'})}`);
	}
	const id = parsed.data.id ?? options.defaultId;
	if (!pluginIdPattern.test(id)) throw new EngineError('init', `plugin id '${id}' is not valid (letters, digits, ".", "_" or "-")`);
	const capabilities: LoadedCapability[] = [];
	for (const declared of parsed.data.capabilities) {
		const offered = capabilityCatalog.find(entry => entry.id === declared.id)!;
		if (offered.kind !== declared.kind) throw new EngineError('init', `capability ${declared.id} is of kind ${offered.kind}, not ${declared.kind}`);
		if (capabilities.some(entry => entry.id === declared.id)) throw new EngineError('init', `capability ${declared.id} is declared twice`);
		capabilities.push({id: declared.id, kind: declared.kind, version: 1, priority: declared.priority ?? 0, on_error: declared.on_error ?? 'fail'});
	}
	if (plugin.ready) {
		let ready: unknown;
		try {
			ready = await plugin.ready();
		} catch (error) {
			throw new EngineError('init', `plugin ${id}: ready() threw: ${error instanceof Error ? error.message : String(error)}`, {cause: error});
		}
		if (ready !== true) throw new EngineError('init', `plugin ${id} is not ready (ready() answered ${JSON.stringify(ready)})`);
	}
	return {
		id,
		capabilities,
		origin: options.origin,
		async invoke(capability, input, signal) {
			if (!capabilities.some(entry => entry.id === capability)) throw new Error(`plugin ${id} did not declare ${capability}`);
			const result = await plugin.invokeCapability({capability, version: 1, input, signal});
			if (result === null || typeof result !== 'object' || !('output' in result)) throw new Error('invokeCapability() must answer {output}');
			return result.output;
		},
	};
}
