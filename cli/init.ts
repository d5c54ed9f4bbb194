import {isAbsolute, relative} from 'node:path';
import {type Command, Argument} from 'commander';
import {skeletonKinds, writeSkeleton, type SkeletonKind} from '../supervisor/scaffold/index.js';
import {okExit} from './exit-codes.js';
import {absolutePath} from './path-option.js';

const guides: Record<SkeletonKind, string> = {
	plugin: 'an in-process candidate (docs/candidates.md)',
	cartridge: 'a cartridge: the folder is the harness, with a case, a collector, graders and a response script (docs/cartridges.md)',
	controller: 'an experiment controller with its response script (docs/controllers.md)',
};

export function registerInit(program: Command): void {
	program
		.command('init')
		.description('write a working skeleton of a plugin (single-file candidate), a cartridge or an experiment controller into a new or empty folder, with a README whose commands validate it and run it once offline')
		.addArgument(new Argument('<kind>', 'what to start').choices(skeletonKinds))
		.argument('<dir>', 'a new folder, or an empty one (a non-empty one is refused)', absolutePath)
		.action(async (kind: SkeletonKind, dir: string) => {
			const files = await writeSkeleton(kind, dir);
			const inside = relative(process.cwd(), dir);
			// A folder under this one is named from here; one elsewhere by its whole path.
			const where = inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? dir : inside;
			process.stdout.write(`wrote ${guides[kind]} into ${where}:\n${files.map(file => `  ${file}`).join('\n')}\nnext: cd ${where} and follow README.md\n`);
			process.exitCode = okExit;
		});
}
