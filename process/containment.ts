import {existsSync} from 'node:fs';
import {z} from 'zod';
import {cgroupBase} from './cgroup/cgroup-base.js';

/** cgroup: the tree's own cgroup v2; proc: the /proc sweep by marker and ancestry; portable: pidtree and tree-kill. */
export const Containment = z.enum(['cgroup', 'proc', 'portable']);
export type Containment = z.infer<typeof Containment>;

/** Forces a backend for every tree this process supervises (and, inherited, for its children). */
export const containmentVariable = 'HLAB_CONTAINMENT';

/**
 * The backend a tree runs under: the one asked for (option, then environment), or the strongest available.
 * A backend asked for but unusable is an error with its reason, never a silent downgrade.
 */
export function chooseContainment(requested?: Containment): Containment {
	const wanted = requested ?? fromEnvironment();
	if (wanted === 'cgroup') {
		const base = cgroupBase();
		if (!base.ok) throw new Error(`cgroup containment is unavailable: ${base.reason}`);
		return 'cgroup';
	}
	if (wanted !== undefined) return wanted;
	if (cgroupBase().ok) return 'cgroup';
	return existsSync('/proc/self/stat') ? 'proc' : 'portable';
}

function fromEnvironment(): Containment | undefined {
	const value = process.env[containmentVariable];
	if (value === undefined || value === '') return undefined;
	const parsed = Containment.safeParse(value);
	if (!parsed.success) throw new TypeError(`${containmentVariable} must be one of ${Containment.options.join(', ')}, got ${value}`);
	return parsed.data;
}
