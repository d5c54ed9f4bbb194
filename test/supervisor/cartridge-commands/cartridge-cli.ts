import {readdir, readFile, stat} from 'node:fs/promises';
import {join} from 'node:path';
import type {Test} from 'tap';
import {CaseRecord, RunRecord} from '../../../cartridges/index.js';
import {examplesDir} from '../../cartridges/cartridge-copy.js';
import {hlab} from '../../hlab.js';
import {tempDir} from '../../temp-dir.js';

export const reportAgent = join(examplesDir, 'report_agent.cartridge');
export const reportResponses = join(examplesDir, 'report_agent.responses.json');
export const settingsAgent = join(examplesDir, 'settings_agent.cartridge');
export const settingsResponses = join(examplesDir, 'settings_agent.responses.json');

export interface CliRun {
	status: number | null;
	stdout: string;
	stderr: string;
	out: string;
}

/** `hlab cartridge eval DIR --out <new temp folder> --responses FILE ...`, as a user runs it. */
export async function evalCli(t: Test, dir: string, responses: string, extra: string[] = []): Promise<CliRun> {
	const out = join(await tempDir(t, 'hlab-runs-'), 'runs');
	const run = await hlab(['cartridge', 'eval', dir, '--out', out, '--provider', 'scripted', '--responses', responses, ...extra]);
	return {status: run.record.exit_code, stdout: run.stdout, stderr: run.stderr, out};
}

export async function readRun(out: string): Promise<RunRecord> {
	return RunRecord.parse(JSON.parse(await readFile(join(out, 'run.json'), 'utf8')));
}

export async function readCase(out: string, id: string): Promise<CaseRecord> {
	return CaseRecord.parse(JSON.parse(await readFile(join(out, 'cases', id, 'record.json'), 'utf8')));
}

/** Every file under a folder, with its text. */
export async function allFiles(dir: string): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	for (const name of await readdir(dir, {recursive: true})) {
		const path = join(dir, name);
		if ((await stat(path)).isFile()) files.set(name, await readFile(path, 'utf8'));
	}
	return files;
}
