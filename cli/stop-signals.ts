import {constants} from 'node:os';
import {endEverythingNow} from '../process/end-now.js';
import {hurriedGraceMs, hurry} from '../process/grace.js';

/** What a command says at each step of its stop, after `stopping:`, `stopping faster:` and `stopping now:`. */
export interface StopWords {
	/** The cooperative stop: what ends and what is still written. */
	first: string;
	/** The faster stop: what is still written. */
	faster: string;
	/** The exit that cannot wait: what is not written, and how to get it. */
	now: string;
}

export interface StopOptions {
	words: StopWords;
	/** Aborted at the first signal (its reason: the signal's name): the command's cooperative stop. */
	stop: AbortController;
	/** The second signal; default: SIGKILL to every process the command started, after a short grace. */
	onHurry?: () => void;
}

const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The one way a long-running command answers SIGINT, SIGTERM and SIGHUP (a closed terminal), counted together:
 * the first starts the cooperative stop, the second the faster stop (the report is still written), the third
 * ends every process the command started, synchronously, and exits at once with 128 + the signal's number.
 * Returns the function that says the command's work is done: a stopped command then kills whatever it started that
 * still runs (a command without an attempt's leak audit, such as `cartridge eval`, leaves nothing behind either); the
 * handlers stay (a signal between the end of the work and the exit must not end it unsaid), and any signal exits at once.
 */
export function listenForStop(options: StopOptions): () => void {
	let received = 0;
	let done = false;
	const onSignal = (signal: NodeJS.Signals): void => {
		received += 1;
		if (signal === 'SIGHUP') outliveTheTerminal();
		if (done) return exitNow(signal);
		if (received === 1) return stopCooperatively(signal, options);
		if (received === 2) return stopFaster(signal, options);
		stopNow(signal, options.words);
	};
	for (const signal of stopSignals) process.on(signal, onSignal);
	return () => {
		done = true;
		if (received > 0) endEverythingNow();
	};
}

function stopCooperatively(signal: NodeJS.Signals, options: StopOptions): void {
	say(`${signal}: stopping: ${options.words.first}; press Ctrl-C again to stop faster`);
	options.stop.abort(signal);
}

function stopFaster(signal: NodeJS.Signals, options: StopOptions): void {
	say(`${signal} again: stopping faster: ${options.words.faster}; press Ctrl-C again to stop now`);
	// The cooperative stop may not have started if the first signal came before the command's work did.
	options.stop.abort(signal);
	if (options.onHurry !== undefined) return options.onHurry();
	// Whatever was told to stop at the first signal had its chance: a short grace, then every tree and thread is ended.
	hurry();
	setTimeout(endEverythingNow, hurriedGraceMs).unref();
}

/** The third signal: nothing may outlive the supervisor, and nothing waits; what is on disk stays as it is. */
function stopNow(signal: NodeJS.Signals, words: StopWords): never {
	endEverythingNow();
	say(`${signal} a third time: stopping now: every process it started was killed; ${words.now}`);
	process.exit(128 + constants.signals[signal]);
}

/**
 * A hung-up terminal fails every later write to it (EIO), and an unheard stream error would end the process before
 * its report: from the hang-up on, what cannot be shown is dropped.
 */
function outliveTheTerminal(): void {
	if (terminalGone) return;
	terminalGone = true;
	// Always one of its own: a listener someone else holds for a while is gone by the time the summary is printed.
	for (const stream of [process.stdout, process.stderr]) stream.on('error', dropWrite);
}

let terminalGone = false;
const dropWrite = (): void => undefined;

/** After the work: nothing is left to save or to stop. */
function exitNow(signal: NodeJS.Signals): never {
	endEverythingNow();
	process.exit(128 + constants.signals[signal]);
}

function say(line: string): void {
	process.stderr.write(`hlab: ${line}\n`);
}

/** An attempt's words: `hlab eval --plan`, the queue coordinator, a search's replicates. */
export const attemptStopWords: StopWords = {
	first: 'the tasks in flight end and are recorded, then the report is written',
	faster: `every process of the attempt is killed in ${hurriedGraceMs} ms; the report is still written and the runtime root removed`,
	now: 'no report.json; hlab eval --recover DIR writes it from the ledger and removes the runtime root',
};
