import {copyFile, mkdir, readFile} from 'node:fs/promises';
import {existsSync} from 'node:fs';
import {dirname, join, resolve} from 'node:path';
import type {Command} from 'commander';
import {capabilityCatalog, sdkClosure, sdkDigest, sdkName, sdkSpecifier, toolDefinitions, validateCandidate} from '../engine/index.js';
import {sha256} from '../files/sha256.js';
import {pluginProtocolVersion} from '../sdk/plugin.js';
import {UsageError} from '../supervisor/input-error.js';
import {failedExit, okExit} from './exit-codes.js';
import {absolutePath, outputPath} from './path-option.js';

export function registerPlugin(program: Command): void {
	const plugin = program.command('plugin').description('single-file candidate plugins: validate them, describe the SDK they build on');
	plugin
		.command('validate')
		.description('check that a candidate compiles under the import rule, loads, exports a RuntimePlugin and, when a TypeScript compiler and Node types are at hand, type-checks (activation and readiness are checked when a task starts)')
		.argument('<file>', 'the candidate file (TypeScript)', absolutePath)
		.option('--json', 'print the verdict as JSON')
		.action(async (file: string, flags: {json?: boolean}) => {
			const verdict = await validateCandidate(file);
			if (flags.json) process.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
			else if (verdict.valid) process.stdout.write(`valid: ${file} (${verdict.source_digest})\n${verdict.checks.filter(check => check.passed === null).map(check => `  ${check.name}: ${check.message}\n`).join('')}`);
			else process.stdout.write(`invalid: ${file}\n${verdict.errors.map(error => `  ${error}`).join('\n')}\n`);
			process.exitCode = verdict.valid ? okExit : failedExit;
		});
	plugin
		.command('describe')
		.description('export the exact SDK type declarations into a new directory and report the capabilities and tools')
		.requiredOption('--out, --types-dir <dir>', 'a directory that must not exist yet, for the SDK\'s declarations (--types-dir: alias of --out)', outputPath)
		.option('--json', 'print the description as JSON')
		.action(async (flags: {typesDir: string; json?: boolean}) => {
			const typesDir = resolve(flags.typesDir);
			if (existsSync(typesDir)) throw new UsageError(`types directory ${typesDir} already exists; choose a new one`, 'output_exists');
			const description = await describeSdk(typesDir);
			if (flags.json) process.stdout.write(`${JSON.stringify(description, null, 2)}\n`);
			else {
				process.stdout.write(`SDK ${sdkSpecifier} ${description.sdk.digest}: ${description.sdk.files.length} declaration files written to ${typesDir} (entry ${description.sdk.entry})\n`);
				if (description.sdk.external.length > 0) process.stdout.write(`the declarations import the packages: ${description.sdk.external.join(', ')}\n`);
				for (const entry of description.capabilities) process.stdout.write(`capability ${entry.id} v${entry.version} (${entry.kind}): ${entry.input} -> ${entry.output}\n`);
				for (const tool of description.tools) process.stdout.write(`tool ${tool.function.name}: ${tool.function.description}\n`);
				for (const missing of description.sdk.unresolved) process.stdout.write(`unresolved: ${missing}\n`);
			}
			process.exitCode = description.sdk.unresolved.length === 0 ? okExit : failedExit;
		});
}

/** Copies the SDK's .d.ts files (and those of the project they import) into the new directory, keeping their layout. */
async function describeSdk(typesDir: string) {
	await mkdir(dirname(typesDir), {recursive: true});
	await mkdir(typesDir);
	const closure = sdkClosure();
	const files: {name: string; digest: string}[] = [];
	for (const path of closure.files.filter(file => file.endsWith('.d.ts'))) {
		const name = sdkName(path);
		await mkdir(dirname(join(typesDir, name)), {recursive: true});
		await copyFile(path, join(typesDir, name));
		files.push({name, digest: sha256(await readFile(path))});
	}
	return {
		schema: 'harness-lab/plugin-description@1' as const,
		types_dir: typesDir,
		protocol_version: pluginProtocolVersion,
		sdk: {specifier: sdkSpecifier, entry: 'sdk/index.d.ts', digest: sdkDigest(), files, external: closure.external, unresolved: closure.unresolved},
		capabilities: capabilityCatalog,
		tools: toolDefinitions(),
	};
}
