import {setTimeout as sleep} from 'node:timers/promises';
import t from 'tap';
import {readInParallel} from '../../files/read-in-parallel.js';

t.test('every item read, the results in the items\' order however the reads finish', async t => {
	const items = Array.from({length: 50}, (_, index) => index);
	const results = await readInParallel(items, async item => {
		await sleep((item * 7) % 5);
		return item * 2;
	});
	t.same(results, items.map(item => item * 2));
	t.same(await readInParallel([], async () => 1), [], 'no items, no reads');
});

t.test('sixteen reads at most at once, and as many as that while items remain', async t => {
	let running = 0;
	let most = 0;
	await readInParallel(Array.from({length: 100}, (_, index) => index), async () => {
		most = Math.max(most, ++running);
		await sleep(1);
		running--;
	});
	t.equal(most, 16);
});

t.test('a failed read fails the whole, with its error', async t => {
	await t.rejects(readInParallel([1, 2, 3], async item => {
		if (item === 2) throw Object.assign(new Error('unreadable'), {code: 'EACCES'});
		return item;
	}), {code: 'EACCES'});
});
