import {startMeteringProxy} from '../supervisor/host/metering-proxy.js';
import {startStreamingUpstream} from '../test/supervisor/host/streaming-upstream.js';
import type {Bench, BenchSize} from './bench-result.js';
import {alternate, median, round, spread} from './stats.js';

const model = 'bench-model';
const body = JSON.stringify({model, messages: [{role: 'user', content: 'Say hello'}], stream: true, stream_options: {include_usage: true}});

/** One streamed chat completion: milliseconds to its first body byte and to its end. */
async function streamOnce(baseUrl: string): Promise<{firstMs: number; totalMs: number}> {
	const started = performance.now();
	const answer = await fetch(`${baseUrl}/chat/completions?delay=2`, {method: 'POST', headers: {'content-type': 'application/json'}, body});
	const reader = answer.body!.getReader();
	let first = await reader.read();
	const firstMs = performance.now() - started;
	while (!first.done) first = await reader.read();
	return {firstMs, totalMs: performance.now() - started};
}

export const meteringProxy: Bench = {
	name: 'metering-proxy',
	async run(size: BenchSize) {
		const requests = size === 'tiny' ? 5 : 200;
		const stub = await startStreamingUpstream();
		const proxy = await startMeteringProxy({base_url: stub.url, model, api_key_env: null, reasoning_effort: null}, 'bench-key');
		try {
			// One unmeasured request each way: connections open, code warm.
			await streamOnce(stub.url);
			await streamOnce(proxy.provider.base_url);
			const direct: number[] = [];
			const proxied: number[] = [];
			const samples = await alternate(requests, async () => {
				const run = await streamOnce(stub.url);
				direct.push(run.totalMs);
				return run.firstMs;
			}, async () => {
				const run = await streamOnce(proxy.provider.base_url);
				proxied.push(run.totalMs);
				return run.firstMs;
			});
			await proxy.close();
			if (proxy.usage().turns !== requests + 1) throw new Error(`the proxy counted ${proxy.usage().turns} turns of ${requests + 1}`);
			const added = median(samples.measured) - median(samples.floor);
			const ratios = samples.measured.map((value, index) => value / samples.floor[index]!);
			return {
				name: 'metering-proxy',
				figure: `time to first byte of a streamed chat completion through the metering proxy, ${requests} requests`,
				ratio: round(median(samples.measured) / median(samples.floor)),
				ratio_spread: spread(ratios.map(value => round(value))),
				measured: {proxy_first_byte_ms: round(median(samples.measured)), added_first_byte_ms: round(added), proxy_request_ms: round(median(proxied)), added_per_request_ms: round(median(proxied) - median(direct))},
				floor: {direct_first_byte_ms: round(median(samples.floor)), direct_request_ms: round(median(direct))},
				floor_description: 'the same request straight to the same streaming stub (7 events 2 ms apart), alternating with the proxied one',
				repetitions: requests,
				notes: 'one proxy for all requests, as one task\'s proxy serves its turns; the proxy checks the request, relays each event as it arrives and reads the usage chunk',
				target: size === 'tiny' ? null : {description: 'at most 2 ms added to the first byte at the median', met: added <= 2},
			};
		} finally {
			await proxy.close();
			await stub.close();
		}
	},
};
