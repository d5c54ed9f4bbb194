import {Redis, type RedisOptions} from 'ioredis';
import {InputError} from '../input-error.js';
import {passwordVariable} from './queue-credentials.js';

export class QueueUrlError extends InputError {
	constructor(readonly reason: 'queue_url' | 'redis_unreachable' | 'redis_auth', message: string) {
		super(message);
	}
}

/** How to reach one Redis: every client of a coordinator or a queue node is made from it, with the same options. */
export interface RedisLink {
	/** The URL, for messages (it never holds the password). */
	shown: string;
	/** The URL, for records: whoever reads one gives the password again. */
	bare: string;
	/**
	 * A new client; `blocking` ones (BullMQ workers, queue events) wait on Redis forever instead of failing a command,
	 * or until `until` aborts: then a lost server is not looked for again, and what waited on it fails.
	 */
	client(blocking?: boolean, overrides?: RedisOptions, until?: AbortSignal): Redis;
}

/** `redis://[user@]host[:port][/db]` or `rediss://` (TLS); anything else is bad input, and so is a password in it: argv is public. */
export function parseRedisUrl(text: string): {url: string; shown: string; bare: string} {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new QueueUrlError('queue_url', `--queue ${text} is not a URL (redis://HOST:PORT[/DB] or rediss://...)`);
	}
	if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new QueueUrlError('queue_url', `--queue must be a redis:// or rediss:// URL, got ${url.protocol}`);
	if (url.hostname === '') throw new QueueUrlError('queue_url', `--queue ${redact(url)} names no host`);
	if (url.password !== '') throw new QueueUrlError('queue_url', `--queue ${redact(url)} holds the Redis password, which ps shows every user of this machine: give it in ${passwordVariable} or --redis-password-file FILE instead`);
	if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname)) throw new QueueUrlError('queue_url', `--queue ${redact(url)}: the path must be a database number (/0, /1, ...)`);
	return {url: url.href, shown: redact(url), bare: redact(url, '')};
}

function redact(url: URL, mask = '***'): string {
	const copy = new URL(url.href);
	if (copy.password !== '') copy.password = mask;
	return copy.href;
}

/**
 * Connects once to prove Redis answers (a one-line error otherwise), then hands out clients made the same way.
 * A non-blocking client gives up after a few reconnections, so that a Redis lost mid-attempt ends the attempt
 * instead of hanging it; a blocking one (BullMQ workers) keeps retrying, as BullMQ asks (maxRetriesPerRequest: null).
 */
export async function openRedisLink(text: string, password: string | null): Promise<RedisLink> {
	const {url, shown, bare} = parseRedisUrl(text);
	const options = (blocking: boolean): RedisOptions => ({
		...(password === null ? {} : {password}),
		connectTimeout: 5000,
		maxRetriesPerRequest: blocking ? null : 3,
		retryStrategy: blocking ? (times: number) => Math.min(times * 200, 2000) : (times: number) => (times > 5 ? null : 200),
	});
	const probe = new Redis(url, {...options(false), lazyConnect: true, retryStrategy: () => null});
	// A refused password reaches only the 'error' event; the connection then closes, which is all connect() says.
	let refused: string | null = null;
	probe.on('error', (error: Error) => {
		if (authFailure.test(error.message)) refused ??= error.message;
	});
	try {
		await probe.connect();
		await probe.ping();
	} catch (error) {
		refused ??= authFailure.test((error as Error).message) ? (error as Error).message : null;
		if (refused !== null) throw new QueueUrlError('redis_auth', authMessage(shown, refused, password !== null));
		throw new QueueUrlError('redis_unreachable', `Redis at ${shown} is unreachable: ${(error as Error).message}`);
	} finally {
		probe.disconnect();
	}
	const client = (blocking = false, overrides: RedisOptions = {}, until?: AbortSignal): Redis => {
		const chosen = {...options(blocking), ...overrides};
		const retry = chosen.retryStrategy;
		// Copied into the duplicates BullMQ makes of the client, so its blocking connections stop looking too.
		return new Redis(url, until === undefined ? chosen : {...chosen, retryStrategy: times => (until.aborted ? null : retry?.(times))});
	};
	return {shown, bare, client};
}

/** Redis's own words for a refused login: a wrong password (or user), or none given where one is needed. */
const authFailure = /^(WRONGPASS|NOAUTH)\b/;

function authMessage(shown: string, said: string, given: boolean): string {
	const what = given ? `refused the password given in ${passwordVariable} or --redis-password-file` : `needs a password: give it in ${passwordVariable} or --redis-password-file`;
	return `Redis at ${shown} ${what} (authentication failed: ${said.replace(/\.$/, '')})`;
}
