/**
 * A computed number as a person reads it: whole from 100 up, else three significant digits (0.333, 12.3, 80). Only
 * where it is printed: the JSON keeps the number as computed.
 */
export function readable(value: number): string {
	if (!Number.isFinite(value)) return String(value);
	return String(Math.abs(value) >= 100 ? Math.round(value) : Number(value.toPrecision(3)));
}
