import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {ToolContext} from 'hlab/sdk';

/** Writes report.json in the project directory and tells the model what it wrote. */
export function execute(context: ToolContext, args: {revenue: number; cost: number}): object {
	const report = {revenue: args.revenue, cost: args.cost, profit: args.revenue - args.cost};
	writeFileSync(join(context.resources.project_dir as string, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
	return {written: 'report.json', profit: report.profit};
}
