import {isAbsolute, relative, resolve} from 'node:path';
import type {CartridgeRuntime} from 'hlab/sdk';

/** A resolver that keeps a path the model gives inside the workspace. */
export function build(runtime: CartridgeRuntime): (path: string) => string {
	return path => {
		const absolute = resolve(runtime.project_root, path);
		const rel = relative(runtime.project_root, absolute);
		if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${path} is outside the project`);
		return absolute;
	};
}
