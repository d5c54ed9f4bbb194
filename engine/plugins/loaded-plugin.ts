import type {CapabilityErrorPolicy, CapabilityId, CapabilityKind} from '../../sdk/plugin.js';

/** A declared capability with its defaults applied. */
export interface LoadedCapability {
	id: CapabilityId;
	kind: CapabilityKind;
	version: 1;
	priority: number;
	on_error: CapabilityErrorPolicy;
}

/** Where an active plugin's code came from. */
export type PluginOrigin =
	| {kind: 'candidate'; source_path: string; source_digest: string; code_digest: string}
	| {kind: 'inline'};

/** An activated, ready plugin as the loop uses it. */
export interface LoadedPlugin {
	id: string;
	capabilities: LoadedCapability[];
	origin: PluginOrigin;
	/** Invokes one declared capability and returns its `output` (unvalidated). */
	invoke(capability: CapabilityId, input: unknown, signal: AbortSignal): Promise<unknown>;
}
