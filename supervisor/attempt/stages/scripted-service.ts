import {createWriteStream} from 'node:fs';
import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import {Writable} from 'node:stream';
import {finished} from 'node:stream/promises';
import {distPath} from '../../../files/install-root.js';
import {writeJson} from '../../../files/write-json.js';
import {runInGroup, type GroupRun} from '../../../process/index.js';
import type {ScriptedConversation} from '../../../scripted/index.js';
import type {ServiceWatch} from './service-watch.js';

export interface ScriptedService {
	/** The base URL, ending in /v1. */
	url: string;
	/** Ends the provider's process group and keeps its process record in the evidence. */
	close(): Promise<void>;
}

/** Where the provider's process record and stderr go in the evidence directory. */
export const scriptedServiceDir = join('services', 'scripted-provider');

/**
 * Starts the scripted provider as a supervised process of its own. Its tokenizer holds about 100 MB, which
 * in the supervisor would make every later fork (host tasks, tool commands, graders) copy that much more page table.
 */
export async function startScriptedService(evidenceDir: string, conversations: readonly ScriptedConversation[] = [], watch: ServiceWatch | null = null): Promise<ScriptedService> {
	const dir = join(evidenceDir, scriptedServiceDir);
	await mkdir(dir, {recursive: true});
	// What it plays besides the built-in tasks, kept in the evidence: the conversations of a response script.
	const played = join(dir, 'conversations.json');
	if (conversations.length > 0) await writeJson(played, conversations, {durable: true, exclusive: true});
	const stop = new AbortController();
	let text = '';
	let announce!: (url: string) => void;
	const announced = new Promise<string>(resolve => (announce = resolve));
	const stdout = new Writable({
		write(chunk: Buffer, _encoding, done) {
			text += chunk.toString('utf8');
			if (text.includes('\n')) announce(text.slice(0, text.indexOf('\n')));
			done();
		},
	});
	const stderr = createWriteStream(join(dir, 'stderr.log'));
	const run = runInGroup({
		argv: [process.execPath, distPath('scripted/server-main.js'), ...(conversations.length > 0 ? ['--conversations', played] : [])],
		stdout: {kind: 'stream', stream: stdout},
		stderr: {kind: 'stream', stream: stderr},
		stdoutLimit: 64 * 1024,
		stderrLimit: 4 * 1024 * 1024,
		signal: stop.signal,
		graceMs: 1000,
		trackDescendants: false,
	});
	const ended = async (): Promise<GroupRun> => {
		const result = await run;
		stderr.end();
		await finished(stderr).catch(() => undefined);
		await writeJson(join(dir, 'process.json'), result.record, {durable: true});
		return result;
	};
	const first = await Promise.race([announced, run]);
	if (typeof first !== 'string') {
		const {record} = await ended();
		throw new Error(`the scripted provider ended before it listened (${record.failure ?? `status ${record.exit_code}`}; its stderr is in ${join(dir, 'stderr.log')})`);
	}
	if (!/^http:\/\/127\.0\.0\.1:\d+\/v1$/.test(first)) {
		stop.abort();
		await ended();
		throw new Error(`the scripted provider announced ${JSON.stringify(first.slice(0, 200))}, not its URL`);
	}
	let closing = false;
	// It ends on its own only by dying: the attempt hears of it at once, not when every task has waited out its deadline.
	void run.then(result => {
		if (closing) return;
		watch?.died({service: 'scripted-provider', atMs: Date.now(), how: result.record.signal === null ? `exit status ${result.record.exit_code}` : `signal ${result.record.signal}`});
	});
	return {
		url: first,
		close: async () => {
			closing = true;
			stop.abort();
			await ended();
		},
	};
}
