import {mkdtemp, rm} from 'node:fs/promises';
import {connect, createServer, type Server, type Socket} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {z} from 'zod';

/** A port of the supervisor's loopback that a sandbox without network may still reach, through a Unix socket. */
export const LoopbackBridge = z.object({
	/** The port inside the sandbox's own loopback: the same number as outside, so addresses need no rewriting. */
	port: z.int().min(1).max(65535),
	/** The Unix socket outside that forwards each connection to the supervisor's 127.0.0.1:port. */
	socket: z.string(),
});
export type LoopbackBridge = z.infer<typeof LoopbackBridge>;

export interface OpenBridge {
	bridge: LoopbackBridge;
	close(): Promise<void>;
}

// A Unix socket's path is limited to 107 bytes; a deep TMPDIR falls back on /tmp.
const socketPathLimit = 100;

/** Opens the outside end: a Unix socket in a folder of its own, each connection piped to 127.0.0.1:port. */
export async function openLoopbackBridge(port: number): Promise<OpenBridge> {
	const dir = await bridgeDir();
	const socket = join(dir, 'loopback.sock');
	const open = new Set<Socket>();
	const server = createServer(inside => {
		const outside = connect({host: '127.0.0.1', port});
		for (const end of [inside, outside]) {
			open.add(end);
			end.on('close', () => open.delete(end));
			// A reset on one side ends the other; neither error is the bridge's to report.
			end.on('error', () => {
				inside.destroy();
				outside.destroy();
			});
		}
		inside.pipe(outside).pipe(inside);
	});
	await listen(server, socket);
	return {
		bridge: {port, socket},
		async close() {
			for (const end of open) end.destroy();
			await new Promise<void>(resolve => server.close(() => resolve()));
			await rm(dir, {recursive: true, force: true});
		},
	};
}

async function bridgeDir(): Promise<string> {
	const preferred = tmpdir();
	const base = join(preferred, 'hlab-bridge-XXXXXX/loopback.sock').length <= socketPathLimit ? preferred : '/tmp';
	return mkdtemp(join(base, 'hlab-bridge-'));
}

function listen(server: Server, socket: string): Promise<void> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(socket, () => {
			server.off('error', reject);
			resolve();
		});
	});
}
