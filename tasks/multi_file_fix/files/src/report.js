import {formatMoney} from './format.js';
import {parseOrder} from './parse.js';
import {itemCount, orderTotal} from './total.js';

/** A one-line summary of an order file's text. */
export function summarize(text) {
	const lines = parseOrder(text);
	return `${lines.length} lines, ${itemCount(lines)} items, total ${formatMoney(orderTotal(lines))}`;
}
