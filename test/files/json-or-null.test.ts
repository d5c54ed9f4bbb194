import t from 'tap';
import {jsonOrNull} from '../../files/json-or-null.js';

t.test('a JSON text gives its value; anything else gives null, never an exception', async t => {
	t.same(jsonOrNull('{"a": [1, "b"]}'), {a: [1, 'b']});
	t.equal(jsonOrNull('7'), 7);
	t.equal(jsonOrNull('{"a": '), null, 'cut short');
	t.equal(jsonOrNull(''), null, 'empty');
	t.equal(jsonOrNull('// a comment\n{}'), null, 'JSON with comments is not JSON');
});
