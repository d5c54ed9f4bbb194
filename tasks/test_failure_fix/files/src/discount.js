/**
 * Price helpers. Prices are integers in cents.
 */

/** The price after taking `percent` percent off, rounded to the nearest cent. */
export function applyDiscount(cents, percent) {
	if (!Number.isInteger(cents) || cents < 0) throw new RangeError('cents must be a non-negative integer');
	if (percent < 0 || percent > 100) throw new RangeError('percent must be between 0 and 100');
	return Math.round(cents * percent / 100);
}

/** The bulk discount in percent for an order of `quantity` items. */
export function bulkDiscount(quantity) {
	if (quantity >= 100) return 20;
	if (quantity >= 10) return 10;
	return 0;
}

/** The total in cents for `quantity` items at `unitCents` each, bulk discount applied. */
export function orderTotal(unitCents, quantity) {
	return applyDiscount(unitCents * quantity, bulkDiscount(quantity));
}
