import {startScriptedServer} from './server.js';

// The scripted provider as a process of its own: it prints its URL on one line and serves until it is signalled.
const server = await startScriptedServer();
process.stdout.write(`${server.url}\n`);
