/** Files read at once: enough to keep the thread pool's four threads and the hashing busy, far below any open-file limit. */
const parallelReads = 16;

/** `read` of every item, `parallelReads` at a time, the results in the items' order. */
export async function readInParallel<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	const reader = async (): Promise<void> => {
		while (next < items.length) {
			const index = next++;
			results[index] = await read(items[index]!);
		}
	};
	await Promise.all(Array.from({length: Math.min(parallelReads, items.length)}, reader));
	return results;
}
