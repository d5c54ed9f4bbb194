import {savedVersions, saveVersion, versionKey} from './saved-tool-versions.js';

/** Version line of each tool, null when the tool cannot be started; `node` is the running runtime. */
export async function toolVersions(tools: string[]): Promise<Record<string, string | null>> {
	const asked = [...new Set(tools)].filter(tool => tool !== 'node').sort();
	const saved = asked.length === 0 ? {} : savedVersions();
	// Side by side: each is a process start, and an attempt waits for them before its first task.
	const versions = await Promise.all(asked.map(tool => toolVersion(tool, saved)));
	return {node: process.version, ...Object.fromEntries(asked.map((tool, index) => [tool, versions[index]!]))};
}

/** The saved answer of the same binary (saved-tool-versions.ts), else the tool's own. */
async function toolVersion(tool: string, saved: Record<string, string>): Promise<string | null> {
	const key = versionKey(tool);
	if (key !== null && Object.hasOwn(saved, key)) return saved[key]!;
	const version = await askVersion(tool);
	// Saved only if the binary is the same after answering as before.
	if (key !== null && version !== null && versionKey(tool) === key) saveVersion(key, version);
	return version;
}

async function askVersion(tool: string): Promise<string | null> {
	// Loaded by a plan whose tasks need tools: process/ and execa are ~150 modules a freeze of any other plan does without.
	const {runInGroup} = await import('../../process/index.js');
	const run = await runInGroup({argv: [tool, '--version'], deadlineMs: 10_000, graceMs: 200, stdoutLimit: 64 * 1024, stderrLimit: 64 * 1024});
	if (run.record.failure !== null || run.record.exit_code !== 0) return null;
	// Some tools print their version on stderr.
	const text = `${run.stdout?.toString('utf8') ?? ''}\n${run.stderr?.toString('utf8') ?? ''}`;
	return text.split('\n').map(line => line.trim()).find(line => line.length > 0) ?? null;
}
