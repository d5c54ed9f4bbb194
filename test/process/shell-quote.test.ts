import {execFileSync} from 'node:child_process';
import t from 'tap';
import {shellQuote} from '../../process/shell-quote.js';
import {checkNoLeaks} from '../leak-check.js';

checkNoLeaks(t);

t.test('a quoted word is read back as exactly the text', async t => {
	for (const text of ['plain', `it's`, `'`, `a'b'c`, '$x `y` \\z "w"', 'new\nline']) {
		t.equal(execFileSync('/bin/sh', ['-c', `printf %s ${shellQuote(text)}`], {encoding: 'utf8'}), text, JSON.stringify(text));
	}
});
