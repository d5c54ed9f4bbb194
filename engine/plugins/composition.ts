import {z} from 'zod';
import type {LoadedPlugin} from './loaded-plugin.js';

/**
 * The configured active modules: plugin ids, or patterns ending in `*`. A plugin whose id no entry selects
 * is excluded: a run that loads it fails the loaded-module check, and nothing is substituted for it.
 */
export const Composition = z.object({
	modules: z.array(z.string().min(1)),
});
export type Composition = z.infer<typeof Composition>;

export function selects(composition: Composition, pluginId: string): boolean {
	return composition.modules.some(entry => (entry.endsWith('*') ? pluginId.startsWith(entry.slice(0, -1)) : entry === pluginId));
}

/** The loaded-module check: null when every loaded plugin is selected, else why not. */
export function checkLoadedModules(composition: Composition, plugins: readonly LoadedPlugin[]): string | null {
	const excluded = plugins.filter(plugin => !selects(composition, plugin.id)).map(plugin => plugin.id);
	if (excluded.length === 0) return null;
	return `plugin${excluded.length > 1 ? 's' : ''} ${excluded.join(', ')} ${excluded.length > 1 ? 'are' : 'is'} not selected by the active composition (${composition.modules.join(', ') || 'no modules'})`;
}

