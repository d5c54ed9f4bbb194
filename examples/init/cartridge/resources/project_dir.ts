import type {CartridgeRuntime} from 'hlab/sdk';

/** The case's fresh workspace, seeded with the case's files. */
export function build(runtime: CartridgeRuntime): string {
	return runtime.project_root;
}
