import {UsageError} from '../supervisor/input-error.js';

const durationUnits: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000};
const byteUnits: Record<string, number> = {b: 1, kb: 1000, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3};

/** Parses `30s`, `2m`, `500ms` or a bare number of seconds into milliseconds. */
export function parseDuration(text: string): number {
	const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
	if (!match) throw new Error(`invalid duration '${text}' (use a non-negative number with ms, s, m or h, like 30s)`);
	return Math.round(Number(match[1]) * durationUnits[match[2] ?? 's']!);
}

/** A duration as help writes its defaults: in the largest unit that divides it (2000 → `2s`, 180000 → `3m`), one format everywhere. */
export function durationText(ms: number): string {
	const [unit, size] = Object.entries(durationUnits).sort((a, b) => b[1] - a[1]).find(([, size]) => ms % size === 0) ?? ['ms', 1];
	return `${ms / size}${unit}`;
}

/** Parses `8MiB`, `256KiB`, `1000` (bytes) into a byte count. */
export function parseBytes(text: string): number {
	const match = /^(\d+)\s*([kmg]i?b|b)?$/i.exec(text.trim());
	if (!match) throw new Error(`invalid size '${text}' (use a whole number with B, KiB, MiB or GiB, like 8MiB)`);
	return Number(match[1]) * byteUnits[(match[2] ?? 'b').toLowerCase()]!;
}

/** A flag that must be a positive whole number; anything else is bad input naming the flag. */
export function positiveInteger(text: string, flag: string): number {
	const value = Number(text);
	if (!Number.isInteger(value) || value <= 0) throw new UsageError(`${flag} must be a positive whole number, got '${text}'`);
	return value;
}

/** A flag that must be a positive duration, in milliseconds; anything else is bad input naming the flag. */
export function positiveDuration(text: string, flag: string): number {
	let ms: number;
	try {
		ms = parseDuration(text);
	} catch (error) {
		throw new UsageError(`${flag}: ${(error as Error).message}`);
	}
	if (ms <= 0) throw new UsageError(`${flag} must be positive`);
	return ms;
}

/** A flag that must be a positive size (`512MiB`, `2GiB`, a bare number of bytes); anything else is bad input naming the flag. */
export function positiveBytes(text: string, flag: string): number {
	let bytes: number;
	try {
		bytes = parseBytes(text);
	} catch (error) {
		throw new UsageError(`${flag}: ${(error as Error).message}`);
	}
	if (bytes <= 0) throw new UsageError(`${flag} must be positive`);
	return bytes;
}
