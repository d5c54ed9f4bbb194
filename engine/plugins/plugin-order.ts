import type {CapabilityId} from '../../sdk/plugin.js';
import type {LoadedCapability, LoadedPlugin} from './loaded-plugin.js';

export interface Provider {
	plugin: LoadedPlugin;
	capability: LoadedCapability;
}

/** The plugins providing a capability, by descending priority, then plugin id (code-point order). */
export function providersOf(plugins: readonly LoadedPlugin[], id: CapabilityId): Provider[] {
	const providers: Provider[] = [];
	for (const plugin of plugins) {
		const capability = plugin.capabilities.find(entry => entry.id === id);
		if (capability) providers.push({plugin, capability});
	}
	return providers.sort((a, b) => b.capability.priority - a.capability.priority || (a.plugin.id < b.plugin.id ? -1 : a.plugin.id > b.plugin.id ? 1 : 0));
}
