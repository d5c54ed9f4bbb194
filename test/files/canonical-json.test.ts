import t from 'tap';
import {canonicalJson} from '../../files/canonical-json.js';
import {digestJson, digestScheme} from '../../files/digest.js';

t.test('canonical JSON sorts keys at every depth and drops undefined members', async t => {
	t.equal(canonicalJson({b: 1, a: {d: [1, {z: 2, y: undefined, x: null}], c: 'é'}}), '{"a":{"c":"é","d":[1,{"x":null,"z":2}]},"b":1}');
});

t.test('equal values give equal digests whatever the key order; different values differ', async t => {
	t.equal(digestJson({a: 1, b: [2, 3]}), digestJson({b: [2, 3], a: 1}));
	t.not(digestJson({a: 1, b: [2, 3]}), digestJson({a: 1, b: [3, 2]}));
	t.match(digestJson(null), /^sha256:[0-9a-f]{64}$/);
});

t.test('non-finite numbers cannot be digested', async t => {
	t.throws(() => canonicalJson({a: Number.NaN}), TypeError);
	t.throws(() => canonicalJson(Number.POSITIVE_INFINITY), TypeError);
});

t.test('the digest scheme is versioned', async t => {
	t.equal(digestScheme, 'harness-lab/sha256-canonical-json@1');
});
