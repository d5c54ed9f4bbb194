import {finished} from 'node:stream/promises';
import type {Readable, Writable} from 'node:stream';

const settleMs = 500;

/**
 * Waits briefly for the child's pipes to drain into their sinks, then destroys what is still open.
 * A pipe can stay open after cleanup only if a process we could not find holds it.
 */
export async function settleStreams(sources: Readable[], sinks: Writable[]): Promise<void> {
	const drained = Promise.all(sources.map(source => finished(source).catch(() => undefined)));
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<'timeout'>(resolve => {
		timer = setTimeout(() => resolve('timeout'), settleMs);
	});
	const outcome = await Promise.race([drained, timeout]);
	clearTimeout(timer);
	if (outcome === 'timeout') for (const source of sources) source.destroy();
	await Promise.all(sinks.map(sink => new Promise<void>(resolve => {
		if (sink.writableFinished || sink.destroyed) return resolve();
		sink.once('finish', () => resolve());
		sink.once('close', () => resolve());
		sink.end();
	})));
}
