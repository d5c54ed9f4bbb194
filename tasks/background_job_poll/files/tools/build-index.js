// Builds out/index.json from data/records.jsonl. It is slow on purpose: the result appears after about 1.5 s.
import {createHash} from 'node:crypto';
import {mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';

const valid = [];
let rejected = 0;
for (const line of readFileSync('data/records.jsonl', 'utf8').split('\n')) {
	if (line.trim() === '') continue;
	let record;
	try {
		record = JSON.parse(line);
	} catch {
		rejected += 1;
		continue;
	}
	if (typeof record.id === 'string' && /^c\d{3}$/.test(record.id) && typeof record.email === 'string' && record.email.includes('@')) valid.push(record.id);
	else rejected += 1;
}
await sleep(1500);
const digest = createHash('sha256').update(valid.sort().join('\n')).digest('hex').slice(0, 16);
mkdirSync('out', {recursive: true});
// Written whole, then renamed, so a reader never sees half a file.
writeFileSync('out/index.json.tmp', `${JSON.stringify({indexed: valid.length, rejected, digest})}\n`);
renameSync('out/index.json.tmp', 'out/index.json');
