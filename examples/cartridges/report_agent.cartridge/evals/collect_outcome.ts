import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import type {CollectorInput} from 'hlab/sdk';

/** Reads report.json from the workspace: the file, never what the tool said it wrote. */
export function collect_report({runtime}: CollectorInput): Record<string, unknown> {
	const path = join(runtime.project_root, 'report.json');
	if (!existsSync(path)) return {report_exists: false};
	const report = JSON.parse(readFileSync(path, 'utf8')) as {profit?: unknown};
	return {report_exists: true, observed_profit: report.profit ?? null};
}
