import type {CartridgeRuntime} from 'hlab/sdk';

/** The case's fresh workspace: where the report is written. */
export function build(runtime: CartridgeRuntime): string {
	return runtime.project_root;
}
