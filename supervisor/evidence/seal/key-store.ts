import {randomBytes} from 'node:crypto';
import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {isAbsolute, join} from 'node:path';
import {InputError} from '../../input-error.js';

export class KeyStoreError extends InputError {
	readonly reason = 'key_store';
}

/**
 * Where the attempts' keys live: `$HLAB_STATE_DIR/keys`, else `$XDG_STATE_HOME/harness-lab/keys`, else
 * `~/.local/state/harness-lab/keys`. Never below an evidence directory, and hidden from every sandbox view.
 */
export function keyStoreDir(env: NodeJS.ProcessEnv = process.env): string {
	const explicit = env.HLAB_STATE_DIR;
	if (explicit !== undefined && explicit !== '') return join(explicit, 'keys');
	const state = env.XDG_STATE_HOME;
	return join(state !== undefined && isAbsolute(state) ? state : join(homedir(), '.local', 'state'), 'harness-lab', 'keys');
}

/** The one place an attempt's key is kept: named by its attempt id, so a path edited in attempt.json cannot point elsewhere. */
function attemptKeyPath(attemptId: string, env: NodeJS.ProcessEnv = process.env): string {
	if (!/^[A-Za-z0-9-]+$/.test(attemptId)) throw new Error(`not an attempt id: ${attemptId}`);
	return join(keyStoreDir(env), `${attemptId}.key`);
}

/** A new random key for a new attempt, in a folder only its user may enter; written once (`wx`), never replaced. */
export function createAttemptKey(attemptId: string, env: NodeJS.ProcessEnv = process.env): {path: string; key: Buffer} {
	const dir = keyStoreDir(env);
	const path = attemptKeyPath(attemptId, env);
	const key = randomBytes(32);
	try {
		mkdirSync(dir, {recursive: true, mode: 0o700});
		// mkdir's mode is masked by the umask and ignored for a folder that exists: set it.
		chmodSync(dir, 0o700);
		// Not through files/writeBytes: a key is not JSON, and its mode must be 0600 from its first byte.
		writeFileSync(path, `${key.toString('hex')}\n`, {flag: 'wx', mode: 0o600});
	} catch (error) {
		throw new KeyStoreError(`cannot keep the attempt's key in ${dir}: ${(error as Error).message} (set HLAB_STATE_DIR to a writable folder)`);
	}
	return {path, key};
}

/** The attempt's key from the key store, or null when this user's store holds none for it. */
export function readAttemptKey(attemptId: string, env: NodeJS.ProcessEnv = process.env): Buffer | null {
	let text: string;
	try {
		text = readFileSync(attemptKeyPath(attemptId, env), 'utf8');
	} catch {
		return null;
	}
	const hex = text.trim();
	return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : null;
}
