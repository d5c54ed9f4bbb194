import {writeFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import type {ToolContext} from 'hlab/sdk';

export function execute(context: ToolContext, args: {name: string; text: string}): object {
	const dir = context.resources.project_dir as string;
	// A note is one file in the project folder: a name with folders in it is cut to its last part.
	const file = basename(args.name);
	writeFileSync(join(dir, file), args.text);
	return {written: file, bytes: Buffer.byteLength(args.text)};
}
