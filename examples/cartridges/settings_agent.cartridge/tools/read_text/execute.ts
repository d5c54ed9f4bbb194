import {readFileSync} from 'node:fs';
import type {ToolContext} from 'hlab/sdk';

export function execute(context: ToolContext, args: {path: string}): string {
	const inside = context.resources.inside as (path: string) => string;
	return readFileSync(inside(args.path), 'utf8');
}
