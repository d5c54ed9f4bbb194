import {action, EngineError, type ToolImplementation, type ToolOutcome} from '../engine/index.js';
import type {CartridgeRuntime, ResourceBuild, ToolExecute} from '../sdk/cartridge.js';
import {validatorOf} from './cartridge-harness.js';
import type {CompiledSource, LoadedCartridge} from './loaded-cartridge.js';

const modules = new Map<string, Promise<Record<string, unknown>>>();

/** Imports compiled code once per process (by its digest). */
function importCompiled(source: CompiledSource): Promise<Record<string, unknown>> {
	let loaded = modules.get(source.code_digest);
	if (loaded === undefined) {
		loaded = import(`data:text/javascript;base64,${Buffer.from(source.code).toString('base64')}`) as Promise<Record<string, unknown>>;
		modules.set(source.code_digest, loaded);
	}
	return loaded;
}

async function exported<T>(source: CompiledSource, name: string): Promise<T> {
	let namespace: Record<string, unknown>;
	try {
		namespace = await importCompiled(source);
	} catch (error) {
		throw new EngineError('init', `${source.path}: cannot be loaded: ${(error as Error).message}`, {cause: error});
	}
	if (typeof namespace[name] !== 'function') throw new EngineError('init', `${source.path}: exports no function ${name}`);
	return namespace[name] as T;
}

/** Builds the case's resources (each resource's build(runtime)); a resource that fails is an `init` failure of the run. */
async function buildResources(cartridge: LoadedCartridge, runtime: CartridgeRuntime): Promise<Map<string, unknown>> {
	const built = new Map<string, unknown>();
	for (const resource of cartridge.resources) {
		const build = await exported<ResourceBuild>(resource.build, 'build');
		try {
			built.set(resource.name, await build(structuredClone(runtime)));
		} catch (error) {
			throw new EngineError('init', `resources/${resource.name}.ts: build failed: ${(error as Error).message}`, {cause: error});
		}
	}
	return built;
}

/** A tool's answer as the model sees it: a string as is, anything else as JSON. */
function observation(value: unknown): ToolOutcome {
	return {content: typeof value === 'string' ? value : JSON.stringify(value) ?? 'null', is_error: false, run: null};
}

/**
 * The implementations of a cartridge's tools for one case, by the ids its Harness binds them to. Arguments are
 * validated by the tool.yaml schema the model is shown; a tool that throws answers the model an error.
 */
export async function cartridgeToolImplementations(cartridge: LoadedCartridge, runtime: CartridgeRuntime): Promise<Map<string, ToolImplementation>> {
	const resources = await buildResources(cartridge, runtime);
	const implementations = new Map<string, ToolImplementation>();
	for (const tool of cartridge.tools) {
		const execute = await exported<ToolExecute>(tool.execute, 'execute');
		const validator = validatorOf(tool.parameters);
		if (!validator.ok) throw new EngineError('init', `tool ${tool.name}: ${validator.problem}`);
		const given = Object.freeze(Object.fromEntries(tool.requires.map(name => [name, resources.get(name)])));
		const implementation = action(validator.validator, async (context, args) => {
			try {
				return observation(await context.deadline.race(Promise.resolve(execute({tool: tool.name, workspace: context.root, resources: given}, args as Record<string, unknown>))));
			} catch (error) {
				context.deadline.throwIfEnded();
				return {content: `error: ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`, is_error: true, run: null};
			}
		});
		implementations.set(tool.implementation, {...implementation, parameters: tool.parameters} as ToolImplementation);
	}
	return implementations;
}
