import t from 'tap';
import {terminalText} from '../../process/index.js';

t.test('what could rewrite a terminal is shown as an escape; text, tabs, newlines and other Unicode stay', async t => {
	t.equal(terminalText('a\tb\nc — ü 漢'), 'a\tb\nc — ü 漢');
	t.equal(terminalText('x\x1b[2K\rpassed'), 'x\\x1b[2K\\x0dpassed', 'an erase-line and a carriage return');
	t.equal(terminalText('\x07\x08\x7f\x9b'), '\\x07\\x08\\x7f\\x9b', 'bell, backspace, DEL and a C1 control sequence introducer');
	t.equal(terminalText('abc\u202edcba\u2066'), 'abc\\u{202e}dcba\\u{2066}', 'bidirectional overrides and isolates');
});
