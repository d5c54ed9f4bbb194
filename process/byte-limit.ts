import {Writable} from 'node:stream';

/** Where a stream's output goes, up to its limit. */
export type OutputSink =
	| {kind: 'buffer'}
	| {kind: 'ignore'}
	| {kind: 'stream'; stream: NodeJS.WritableStream};

export interface LimitedOutput {
	/** Consumes the child's stream: counts every byte, keeps at most `limit` of them. */
	writable: Writable;
	bytesSeen(): number;
	bytesKept(): number;
	overflowed(): boolean;
	/** The kept bytes, for a `buffer` sink; null otherwise. */
	buffer(): Buffer | null;
}

/**
 * Keeps a stream's bytes up to a limit and reports the first byte past it.
 * Past the limit bytes are counted and dropped, so memory stays bounded by the limit.
 */
export function limitOutput(sink: OutputSink, limit: number | null, onOverflow: () => void): LimitedOutput {
	const chunks: Buffer[] = [];
	let seen = 0;
	let kept = 0;
	let over = false;
	const keep = (chunk: Buffer, done: (error?: Error | null) => void): void => {
		kept += chunk.length;
		if (sink.kind === 'buffer') chunks.push(chunk);
		if (sink.kind !== 'stream') return done();
		// Respect the sink's back-pressure so a slow terminal or file cannot grow our memory.
		if (sink.stream.write(chunk)) done();
		else sink.stream.once('drain', () => done());
	};
	const writable = new Writable({
		write(chunk: Buffer, _encoding, done) {
			seen += chunk.length;
			if (over) return done();
			const room = limit === null ? chunk.length : limit - kept;
			if (chunk.length <= room) return keep(chunk, done);
			over = true;
			onOverflow();
			if (room > 0) keep(chunk.subarray(0, room), done);
			else done();
		},
	});
	return {
		writable,
		bytesSeen: () => seen,
		bytesKept: () => kept,
		overflowed: () => over,
		buffer: () => (sink.kind === 'buffer' ? Buffer.concat(chunks) : null),
	};
}
