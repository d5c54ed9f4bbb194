import {readFileSync} from 'node:fs';
import {InputError} from '../input-error.js';

/** The queue's shared secret: only in the environment or a file, never on a command line, never in Redis. */
export const secretVariable = 'HLAB_QUEUE_SECRET';
/** The Redis password, likewise: a URL on a command line is shown by `ps` to every user of the machine. */
export const passwordVariable = 'HLAB_REDIS_PASSWORD';

/** Shorter secrets are guessable offline from one sealed answer. */
const minimumSecretLength = 16;

export class QueueAuthError extends InputError {
	constructor(readonly reason: 'queue_secret' | 'redis_password', message: string) {
		super(message);
	}
}

/** How a coordinator or a queue node proves itself: `secret` null only with --insecure-queue. */
export interface QueueCredentials {
	secret: string | null;
	redisPassword: string | null;
}

export interface CredentialSources {
	secretFile: string | null;
	passwordFile: string | null;
	/** --insecure-queue: run without a secret, the attempt then labelled unauthenticated. */
	insecure: boolean;
	/** Whether this command needs the secret at all (a recovery only drains the queue). */
	needsSecret: boolean;
}

/**
 * Reads the secret and the password once, then removes both variables from this process's environment, so that no
 * worker thread, scripted provider or tool command started later inherits them.
 */
export function takeQueueCredentials(sources: CredentialSources): QueueCredentials {
	const secret = readCredential(secretVariable, sources.secretFile, '--queue-secret-file', 'queue_secret');
	const redisPassword = readCredential(passwordVariable, sources.passwordFile, '--redis-password-file', 'redis_password');
	delete process.env[secretVariable];
	delete process.env[passwordVariable];
	if (!sources.needsSecret) return {secret: null, redisPassword};
	if (secret === null && !sources.insecure) throw new QueueAuthError('queue_secret', `a queue needs a shared secret: set ${secretVariable} or give --queue-secret-file FILE on the coordinator and every queue node (or --insecure-queue on all of them, and the attempt is labelled unauthenticated)`);
	if (secret !== null && sources.insecure) throw new QueueAuthError('queue_secret', `--insecure-queue and a queue secret contradict each other: give one of them`);
	if (secret !== null && secret.length < minimumSecretLength) throw new QueueAuthError('queue_secret', `the queue secret is ${secret.length} characters; give at least ${minimumSecretLength} (e.g. head -c 32 /dev/urandom | base64)`);
	return {secret, redisPassword};
}

/** The variable, else the file's first line; both given is ambiguous. */
function readCredential(variable: string, file: string | null, flag: string, reason: QueueAuthError['reason']): string | null {
	const fromEnv = process.env[variable];
	const given = fromEnv === undefined || fromEnv === '' ? null : fromEnv;
	if (file === null) return given;
	if (given !== null) throw new QueueAuthError(reason, `both ${variable} and ${flag} are given: give one of them`);
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		throw new QueueAuthError(reason, `${flag} ${file} cannot be read: ${(error as Error).message}`);
	}
	const line = text.split('\n')[0]!.trim();
	if (line === '') throw new QueueAuthError(reason, `${flag} ${file} is empty`);
	return line;
}
