import {writeBytes, type WriteOptions} from './write-json.js';

/** Containers this near the top are walked member by member; anything deeper is one `JSON.stringify` (a report: each task's entry). */
const walkedDepth = 2;

/** About this many characters go to each write: a 17 MiB report is a few hundred writes, and no piece of it is held twice. */
const writeChars = 1 << 16;

/** Skipped as an object's member and `null` as an array's element, as `JSON.stringify` does. */
const absent = Symbol('absent');

/**
 * Writes `value` as `writeJson` does (the same bytes, the same temporary file, fsync and rename under `options`), but in
 * pieces made as they are written: a large document (report.json of 10,000 tasks) is never one text in memory.
 * The write spans turns of the event loop: `value` must not change until it resolves (a report is built, then written).
 */
export async function writeJsonInPieces(path: string, value: unknown, options: WriteOptions = {}): Promise<void> {
	await writeBytes(path, inWrites(jsonPieces(value)), options);
}

/** The text of `jsonText(value)` (two-space indent, a final newline), piece by piece. */
export function* jsonPieces(value: unknown): Generator<string> {
	const top = resolved(value, '');
	if (top === absent) yield 'undefined';
	else yield* piecesOf(top, '', 0);
	yield '\n';
}

function* piecesOf(value: unknown, indent: string, depth: number): Generator<string> {
	if (depth >= walkedDepth || !isWalked(value)) yield JSON.stringify(value, null, 2).replaceAll('\n', `\n${indent}`);
	else if (Array.isArray(value)) yield* arrayPieces(value, indent, depth);
	else yield* objectPieces(value as Record<string, unknown>, indent, depth);
}

function* arrayPieces(array: unknown[], indent: string, depth: number): Generator<string> {
	if (array.length === 0) return yield '[]';
	const inner = `${indent}  `;
	for (let index = 0; index < array.length; index++) {
		yield index === 0 ? `[\n${inner}` : `,\n${inner}`;
		const item = resolved(array[index], String(index));
		if (item === absent) yield 'null';
		else yield* piecesOf(item, inner, depth + 1);
	}
	yield `\n${indent}]`;
}

function* objectPieces(object: Record<string, unknown>, indent: string, depth: number): Generator<string> {
	const inner = `${indent}  `;
	let first = true;
	for (const key of Object.keys(object)) {
		const member = resolved(object[key], key);
		if (member === absent) continue;
		yield `${first ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `;
		first = false;
		yield* piecesOf(member, inner, depth + 1);
	}
	yield first ? '{}' : `\n${indent}}`;
}

/**
 * A value after its `toJSON(key)`, or `absent` for what `JSON.stringify` leaves out. The one difference from it: a
 * `toJSON` that returns a value with a `toJSON` of its own has that one called too (with the key '') below the walked depth.
 */
function resolved(value: unknown, key: string): unknown {
	const own = (typeof value === 'object' && value !== null) || typeof value === 'bigint' ? (value as {toJSON?: unknown}).toJSON : undefined;
	const result = typeof own === 'function' ? (own as (key: string) => unknown).call(value, key) : value;
	return result === undefined || typeof result === 'function' || typeof result === 'symbol' ? absent : result;
}

/** Arrays and plain objects are walked; anything else (a boxed number, a class instance) is left to `JSON.stringify` whole. */
function isWalked(value: unknown): boolean {
	if (Array.isArray(value)) return true;
	if (typeof value !== 'object' || value === null) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/** Pieces gathered into writes of about `writeChars`. */
async function* inWrites(pieces: Iterable<string>): AsyncGenerator<string> {
	let pending = '';
	for (const piece of pieces) {
		pending += piece;
		if (pending.length >= writeChars) {
			yield pending;
			pending = '';
		}
	}
	if (pending.length > 0) yield pending;
}
