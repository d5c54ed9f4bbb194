import {openLoopbackBridge, type Sandbox} from '../../process/index.js';
import type {MeteringProxy} from './metering-proxy.js';

export interface ProxyOnlySandbox {
	sandbox: Sandbox;
	close(): Promise<void>;
}

/** The sandbox with no network but the task's metering proxy: its one port bridged into the sandbox's own loopback. */
export async function proxyOnlySandbox(sandbox: Sandbox, proxy: MeteringProxy): Promise<ProxyOnlySandbox> {
	const bridge = await openLoopbackBridge(Number(new URL(proxy.provider.base_url).port));
	return {sandbox: {...sandbox, network: false, bridges: [bridge.bridge]}, close: () => bridge.close()};
}
