import {z} from 'zod';
import {addSpend, emptySpend, Spend, spendAbove, spendFields} from './spend.js';

export const SpendUnit = z.enum(['round', 'evaluation', 'task-attempt', 'model-call']);
export type SpendUnit = z.infer<typeof SpendUnit>;

/** One unit of work: what it reserved before it started and what it was charged after it ended. */
export const LedgerEntry = z.object({
	unit: SpendUnit,
	label: z.string(),
	reserved: Spend,
	/** Null while the unit runs, and for a unit released without starting. */
	charged: Spend.nullable(),
	state: z.enum(['reserved', 'settled', 'abandoned', 'released']),
	/** Why the charge is not (only) what was measured: fields nobody measured, or the type of the error that ended it. */
	note: z.string().nullable(),
}).strict();
export type LedgerEntry = z.infer<typeof LedgerEntry>;

/** What was measured when a unit ended; a null count is unknown and keeps that field's reservation charged. */
export interface Measured {
	rounds?: number;
	candidate_evaluations?: number;
	task_attempts?: number;
	model_calls?: Partial<Record<string, number | null>>;
	tokens?: Record<string, number | null>;
}

export type Reserved = {ok: true; id: number} | {ok: false; detail: string};

/**
 * Spending against the envelope. A unit reserves its worst case before it starts and does not start when that
 * could cross a limit; it is charged what was measured when it ends, and a measurement above its reservation
 * is returned as exceeded (the charge stands).
 */
export class SpendingLedger {
	readonly entries: LedgerEntry[] = [];

	constructor(readonly limits: Spend) {}

	/** What has been charged. */
	spent(): Spend {
		return this.entries.reduce((total, entry) => addSpend(total, entry.charged ?? emptySpend()), emptySpend());
	}

	/** What has been charged plus what open units hold. */
	committed(): Spend {
		return this.entries.reduce((total, entry) => addSpend(total, entry.state === 'reserved' ? entry.reserved : entry.charged ?? emptySpend()), emptySpend());
	}

	reserve(unit: SpendUnit, label: string, worst: Spend): Reserved {
		const crossing = spendAbove(addSpend(this.committed(), worst), this.limits);
		if (crossing.length > 0) return {ok: false, detail: `${unit} ${label} could cross the envelope: ${crossing.join(', ')}`};
		this.entries.push({unit, label, reserved: worst, charged: null, state: 'reserved', note: null});
		return {ok: true, id: this.entries.length - 1};
	}

	/** Charges what was measured; returns the fields measured above the reservation (empty when none). */
	settle(id: number, measured: Measured): string[] {
		const entry = this.open(id);
		const {charged, unknown} = chargeOf(entry.reserved, measured);
		Object.assign(entry, {charged, state: 'settled', note: unknown.length === 0 ? null : `not measured, charged as reserved: ${unknown.join(', ')}`});
		return spendAbove(charged, entry.reserved).map(field => `${entry.unit} ${entry.label}: ${field}`);
	}

	/** A unit that did not start: it is charged nothing. */
	release(id: number): void {
		Object.assign(this.open(id), {state: 'released'});
	}

	/** Every open unit is charged its whole reservation (an error ended it); returns them, outermost first. */
	abandon(errorType: string): LedgerEntry[] {
		const open = this.entries.filter(entry => entry.state === 'reserved');
		for (const entry of open) Object.assign(entry, {charged: entry.reserved, state: 'abandoned', note: errorType});
		return open;
	}

	private open(id: number): LedgerEntry {
		const entry = this.entries[id];
		if (entry?.state !== 'reserved') throw new Error(`spending entry ${id} is not open`);
		return entry;
	}
}

/** The charge of a measurement: each field measured, or its reservation where the measurement is unknown. */
function chargeOf(reserved: Spend, measured: Measured): {charged: Spend; unknown: string[]} {
	const unknown: string[] = [];
	const counts = (kind: 'model_calls' | 'tokens'): Record<string, number> => {
		const given = measured[kind] ?? {};
		const keys = new Set([...Object.keys(reserved[kind]), ...Object.keys(given)]);
		return Object.fromEntries([...keys].map(key => {
			const value = given[key];
			if (value === null) unknown.push(`${kind}.${key}`);
			return [key, value === null ? reserved[kind][key as never] ?? 0 : value ?? 0];
		}));
	};
	const charged: Spend = {
		rounds: measured.rounds ?? 0,
		candidate_evaluations: measured.candidate_evaluations ?? 0,
		task_attempts: measured.task_attempts ?? 0,
		model_calls: counts('model_calls'),
		tokens: counts('tokens'),
	};
	return {charged, unknown};
}

/** A one-line account of a spend, e.g. `rounds 1, task_attempts 4, tokens.tokens(agent) 912`. */
export function describeSpend(spend: Spend): string {
	return [...spendFields(spend)].filter(([, value]) => value > 0).map(([name, value]) => `${name} ${value}`).join(', ') || 'nothing';
}
