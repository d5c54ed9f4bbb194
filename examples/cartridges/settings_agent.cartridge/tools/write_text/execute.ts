import {writeFileSync} from 'node:fs';
import type {ToolContext} from 'hlab/sdk';

export function execute(context: ToolContext, args: {path: string; content: string}): object {
	const inside = context.resources.inside as (path: string) => string;
	writeFileSync(inside(args.path), args.content);
	return {written: args.path, bytes: Buffer.byteLength(args.content)};
}
