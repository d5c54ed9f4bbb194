import type {Socket} from 'node:net';

/**
 * Calls `onLine` with each newline-terminated line the socket sends; a line past `limit` bytes calls `onOverflow`
 * once and nothing more is read, so a peer cannot grow this process's memory.
 */
export function readLines(socket: Socket, limit: number, onLine: (line: string) => void, onOverflow: () => void): void {
	let pending: Buffer[] = [];
	let size = 0;
	let over = false;
	socket.on('data', (chunk: Buffer) => {
		if (over) return;
		let start = 0;
		for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
			const line = Buffer.concat([...pending, chunk.subarray(start, end)]).toString('utf8');
			pending = [];
			size = 0;
			start = end + 1;
			if (line.trim() !== '') onLine(line);
		}
		size += chunk.length - start;
		if (size > limit) {
			over = true;
			pending = [];
			onOverflow();
			return;
		}
		if (start < chunk.length) pending.push(chunk.subarray(start));
	});
}

/** Writes one message as a line. */
export function writeLine(socket: Socket, message: unknown): void {
	if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
}
