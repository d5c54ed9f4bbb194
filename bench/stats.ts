/** The middle value; the mean of the two middle values for an even count. */
export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Smallest and largest observation, so a reader sees how noisy the machine was. */
export function spread(values: number[]): {min: number; max: number} {
	return {min: Math.min(...values), max: Math.max(...values)};
}

/**
 * Runs the floor and the measured work alternately, so that load on a shared machine
 * falls on both sides alike, and returns each side's samples.
 */
export async function alternate(repetitions: number, floor: () => Promise<number>, measured: () => Promise<number>): Promise<{floor: number[]; measured: number[]}> {
	const samples = {floor: [] as number[], measured: [] as number[]};
	for (let round = 0; round < repetitions; round += 1) {
		// Swap which side goes first every round: neither always gets the warm cache.
		if (round % 2 === 0) {
			samples.floor.push(await floor());
			samples.measured.push(await measured());
		} else {
			samples.measured.push(await measured());
			samples.floor.push(await floor());
		}
	}
	return samples;
}

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));
