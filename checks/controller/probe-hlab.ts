import {runInGroup} from '../../process/index.js';

/** The status hlab's launcher exits with on a Node older than 22 (bin/hlab.js). */
const oldNodeExit = 125;
const probeTimeoutMs = 30_000;

/**
 * Runs `EXE --version` once before the check: an executable that cannot run (most often a `#!/usr/bin/env node`
 * launcher meeting an older Node first on PATH) is named as such, not reported as four failed checks.
 * Returns null when it runs, else the one line to refuse with.
 */
export async function hlabProblem(hlab: string): Promise<string | null> {
	const run = await runInGroup({argv: [hlab, '--version'], deadlineMs: probeTimeoutMs, stdoutLimit: 64 * 1024, stderrLimit: 64 * 1024});
	if (run.record.failure === null && run.record.exit_code === 0) return null;
	const said = (run.stderr?.toString() ?? '').trim().split('\n')[0]?.replace(/^hlab: /, '') ?? '';
	if (run.record.exit_code === oldNodeExit) return `--hlab ${hlab} runs on a Node older than 22 (${said || `exit ${oldNodeExit}`}); put Node 22 first on PATH, or give a launcher that names its Node (hlab build-host)`;
	return `--hlab ${hlab} does not run: \`${hlab} --version\` ${run.record.failure_message ?? `exited ${run.record.exit_code ?? run.record.signal}`}${said ? `: ${said}` : ''}`;
}
