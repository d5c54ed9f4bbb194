import {test} from 'node:test';
import assert from 'node:assert/strict';
import {applyDiscount, bulkDiscount, orderTotal} from '../src/discount.js';

test('a discount takes the percentage off the price', () => {
	assert.equal(applyDiscount(1000, 15), 850);
	assert.equal(applyDiscount(2500, 50), 1250);
});

test('a discount rounds to the nearest cent', () => {
	assert.equal(applyDiscount(999, 10), 899);
	assert.equal(applyDiscount(1005, 50), 503);
});

test('no discount and a full discount', () => {
	assert.equal(applyDiscount(1234, 0), 1234);
	assert.equal(applyDiscount(1234, 100), 0);
});

test('an impossible percentage is refused', () => {
	assert.throws(() => applyDiscount(100, 120), RangeError);
	assert.throws(() => applyDiscount(100, -1), RangeError);
});

test('bulk discounts by quantity', () => {
	assert.equal(bulkDiscount(1), 0);
	assert.equal(bulkDiscount(10), 10);
	assert.equal(bulkDiscount(250), 20);
});

test('an order total applies the bulk discount', () => {
	assert.equal(orderTotal(500, 2), 1000);
	assert.equal(orderTotal(500, 10), 4500);
});
