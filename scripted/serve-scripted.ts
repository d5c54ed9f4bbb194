import {readFile} from 'node:fs/promises';
import {z} from 'zod';
import {ScriptTurn, type ScriptedConversation} from './response-script.js';
import {startScriptedServer} from './server.js';

const Conversations = z.array(z.object({id: z.string(), prompt: z.string(), turns: z.array(ScriptTurn)}));

/** `--conversations FILE`: the response-script conversations to play besides the built-in tasks (a cartridge plan's cases). */
async function conversationsOf(argv: string[]): Promise<ScriptedConversation[]> {
	const at = argv.indexOf('--conversations');
	if (at === -1) return [];
	return Conversations.parse(JSON.parse(await readFile(argv[at + 1]!, 'utf8')));
}

// The scripted provider as a process of its own: it prints its URL on one line and serves until it is signalled.
const server = await startScriptedServer({conversations: await conversationsOf(process.argv.slice(2))});
process.stdout.write(`${server.url}\n`);

// If the supervisor dies without ending it (SIGKILL), this process is reparented: then it ends itself.
const parent = process.ppid;
setInterval(() => {
	if (process.ppid !== parent) process.exit(0);
}, 500).unref();
