import {writeJson} from '../../files/write-json.js';
import {PairRecord} from './pair-record.js';

/** pair.json: the in-memory record and its on-disk copy, replaced atomically at every change, one write at a time. */
export class PairFile {
	#chain: Promise<void> = Promise.resolve();

	constructor(readonly path: string, public record: PairRecord) {}

	/** Applies a change and writes the whole record; resolves once it is on disk. */
	update(change: (record: PairRecord) => void): Promise<void> {
		change(this.record);
		this.record.updated_at = new Date().toISOString();
		const snapshot = PairRecord.parse(structuredClone(this.record));
		const next = this.#chain.then(() => writeJson(this.path, snapshot, {durable: true}));
		this.#chain = next.catch(() => undefined);
		return next;
	}
}
