import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import type {CollectorInput} from 'hlab/sdk';

/** The settings file as it is in the workspace after the run. */
export function collect_settings({runtime}: CollectorInput): Record<string, unknown> {
	const text = readFileSync(join(runtime.project_root, 'settings.json'), 'utf8');
	return {settings: JSON.parse(text) as unknown};
}
