import {parentPort} from 'node:worker_threads';
import {startScriptedServer} from './server.js';

// The thread lives as long as its server; the parent ends it with terminate().
try {
	const server = await startScriptedServer();
	parentPort!.postMessage({url: server.url});
} catch (error) {
	parentPort!.postMessage({error: (error as Error).message});
}
