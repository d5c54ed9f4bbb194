/** The order's total: the sum of quantity times unit price, rounded to whole cents. */
export function orderTotal(lines) {
	const total = lines.reduce((sum, line) => sum + line.quantity * line.unitPrice);
	return Math.round(total * 100) / 100;
}

/** The number of items in the order. */
export function itemCount(lines) {
	return lines.reduce((sum, line) => sum + line.quantity, 0);
}
