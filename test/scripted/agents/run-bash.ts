import {spawn} from 'node:child_process';

/** A command's merged output (stdout and stderr in arrival order, as agents show them) and its exit status. */
export interface BashRun {
	output: string;
	exitCode: number | null;
}

/**
 * Runs a command line with bash in the workspace, in a process group of its own: what an agent's shell tool does.
 * The groups are remembered so the test ends everything they started (a background job included) with `endAll`.
 */
export class Shell {
	private readonly groups: number[] = [];

	constructor(private readonly cwd: string) {}

	run(line: string, argv: string[] = ['bash', '-c', line]): Promise<BashRun> {
		return new Promise((resolve, reject) => {
			const child = spawn(argv[0]!, argv.slice(1), {cwd: this.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe']});
			if (child.pid !== undefined) this.groups.push(child.pid);
			const chunks: Buffer[] = [];
			child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
			child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
			const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
			child.on('error', reject);
			child.on('close', code => {
				clearTimeout(timer);
				resolve({output: Buffer.concat(chunks).toString('utf8'), exitCode: code});
			});
		});
	}

	/** Starts a command line in the background in a group of its own, as an agent's managed background job: its pid. */
	start(line: string): number {
		const child = spawn('bash', ['-c', line], {cwd: this.cwd, detached: true, stdio: 'ignore'});
		child.unref();
		if (child.pid === undefined) throw new Error(`cannot start ${line}`);
		this.groups.push(child.pid);
		return child.pid;
	}

	endAll(): void {
		for (const group of this.groups) {
			try {
				process.kill(-group, 'SIGKILL');
			} catch {
				// The group is gone already.
			}
		}
	}
}
