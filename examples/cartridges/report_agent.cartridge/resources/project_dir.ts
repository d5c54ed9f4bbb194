import type {CartridgeRuntime} from 'harness-lab/sdk';

/** The case's fresh workspace: where the report is written. */
export function build(runtime: CartridgeRuntime): string {
	return runtime.project_root;
}
