import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {isBuiltin} from 'node:module';
import {dirname, join, relative, resolve} from 'node:path';
import {sha256} from '../../files/sha256.js';
import {installRoot} from '../../files/install-root.js';

/** Compiled code lives here; SDK file names are recorded relative to it (`sdk/plugin.d.ts`). */
export const distRoot = join(installRoot, 'dist');
/** The compiled public SDK: what a candidate's `hlab/sdk` import resolves to. */
export const sdkDistDir = join(distRoot, 'sdk');
export const sdkEntry = join(sdkDistDir, 'index.js');
/** The import specifier candidates use for the SDK. */
export const sdkSpecifier = 'hlab/sdk';
/** The SDK's name before the package was `hlab`: candidates, cartridges and controllers written for it keep compiling. */
export const legacySdkSpecifier = 'harness-lab/sdk';

const specifiers = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

export interface SdkClosure {
	/** Absolute paths, sorted: the SDK's .js and .d.ts files and the project files they import (controller-protocol). */
	files: string[];
	/** Packages the SDK's files import (e.g. zod). */
	external: string[];
	/** Relative imports that lead to no file. */
	unresolved: string[];
}

/** The SDK and everything of the project it reaches through relative imports, in compiled form. */
export function sdkClosure(): SdkClosure {
	const files = new Set<string>();
	const external = new Set<string>();
	const unresolved: string[] = [];
	const queue = readdirSync(sdkDistDir).filter(name => name.endsWith('.js') || name.endsWith('.d.ts')).map(name => join(sdkDistDir, name));
	while (queue.length > 0) {
		const file = queue.pop()!;
		if (files.has(file)) continue;
		files.add(file);
		for (const [, specifier] of readFileSync(file, 'utf8').matchAll(specifiers)) {
			if (!specifier!.startsWith('.')) {
				if (!isBuiltin(specifier!)) external.add(specifier!.startsWith('@') ? specifier!.split('/').slice(0, 2).join('/') : specifier!.split('/')[0]!);
				continue;
			}
			const target = resolve(dirname(file), specifier!);
			const wanted = file.endsWith('.d.ts') ? target.replace(/\.js$/, '.d.ts') : target;
			if (existsSync(wanted)) queue.push(wanted);
			else unresolved.push(`${sdkName(file)} imports ${specifier}`);
		}
	}
	return {files: [...files].sort(), external: [...external].sort(), unresolved: [...new Set(unresolved)].sort()};
}

/** A compiled file's name relative to dist/, as recorded in digests and exported type directories. */
export function sdkName(path: string): string {
	return relative(distRoot, path).split('\\').join('/');
}

/** The SDK's JavaScript and type declaration files with what they import of the project (absolute, sorted). */
export function sdkFiles(): string[] {
	return sdkClosure().files;
}

/** Digest of the SDK: sha256 over the sorted `name sha256:...` lines of its files. */
export function sdkDigest(): string {
	const lines = sdkFiles().map(path => `${sdkName(path)} ${sha256(readFileSync(path))}`);
	return sha256(`${lines.join('\n')}\n`);
}
