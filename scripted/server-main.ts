import {readFile} from 'node:fs/promises';
import {startScriptedServer} from './server.js';
import type {ScriptedConversation} from './response-script.js';

// The scripted provider as a process of its own: it prints its URL on one line and serves until it is signalled.
// Its one optional argument is a JSON file of the scripted conversations to play (written by the supervisor).
const file = process.argv[2];
const conversations = file === undefined ? [] : JSON.parse(await readFile(file, 'utf8')) as ScriptedConversation[];
const server = await startScriptedServer({conversations});
process.stdout.write(`${server.url}\n`);

// If the supervisor dies without ending it (SIGKILL), this process is reparented: then it ends itself.
const parent = process.ppid;
setInterval(() => {
	if (process.ppid !== parent) process.exit(0);
}, 500).unref();
