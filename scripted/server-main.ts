import {startScriptedServer} from './server.js';

// The scripted provider as a process of its own: it prints its URL on one line and serves until it is signalled.
const server = await startScriptedServer();
process.stdout.write(`${server.url}\n`);

// If the supervisor dies without ending it (SIGKILL), this process is reparented: then it ends itself.
const parent = process.ppid;
setInterval(() => {
	if (process.ppid !== parent) process.exit(0);
}, 500).unref();
