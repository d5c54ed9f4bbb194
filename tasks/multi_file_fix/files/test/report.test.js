import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {parseOrder} from '../src/parse.js';
import {itemCount, orderTotal} from '../src/total.js';
import {formatMoney} from '../src/format.js';
import {summarize} from '../src/report.js';

test('order lines are parsed into name, quantity and unit price', () => {
	assert.deepEqual(parseOrder('widget,3,2.50\n# comment\n\ngadget, 1, 10'), [
		{name: 'widget', quantity: 3, unitPrice: 2.5},
		{name: 'gadget', quantity: 1, unitPrice: 10},
	]);
});

test('the total sums quantity times unit price', () => {
	assert.equal(orderTotal([{name: 'a', quantity: 2, unitPrice: 1.25}, {name: 'b', quantity: 1, unitPrice: 3}]), 5.5);
	assert.equal(orderTotal([]), 0);
});

test('the item count sums quantities', () => {
	assert.equal(itemCount([{name: 'a', quantity: 2, unitPrice: 1}, {name: 'b', quantity: 5, unitPrice: 1}]), 7);
});

test('money has two decimals', () => {
	assert.equal(formatMoney(12.5), '$12.50');
});

test('the sample order is summarized', () => {
	const text = readFileSync(new URL('../data/order.csv', import.meta.url), 'utf8');
	assert.equal(summarize(text), '3 lines, 16 items, total $26.50');
});
