import {test} from 'node:test';
import assert from 'node:assert/strict';
import {slugify} from '../src/slugify.js';

test('words are lower-cased and joined by hyphens', () => {
	assert.equal(slugify('Hello World'), 'hello-world');
});

test('runs of other characters become one hyphen, none at the ends', () => {
	assert.equal(slugify('  Node.js -- the   Good Parts!  '), 'node-js-the-good-parts');
	assert.equal(slugify('***'), '');
});

test('accents are removed', () => {
	assert.equal(slugify('Crème brûlée à la carte'), 'creme-brulee-a-la-carte');
});

test('digits are kept', () => {
	assert.equal(slugify('Top 10 tips for 2024'), 'top-10-tips-for-2024');
});

test('a long slug is cut at a hyphen within the limit', () => {
	assert.equal(slugify('the quick brown fox jumps over the lazy dog', 20), 'the-quick-brown-fox');
	assert.equal(slugify('abcdefghijklmnopqrstuvwxyz', 10), 'abcdefghij');
});
