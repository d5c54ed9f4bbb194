import {existsSync, readdirSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {ownIdentity} from '../../../process/process-identity.js';
import {openEvidenceDir, removeDeadOpenings, taskDirName} from '../../../supervisor/evidence/evidence-dir.js';
import {tempDir} from '../../temp-dir.js';

t.test('task folders are numbered from 1 with at least three digits', async t => {
	t.equal(taskDirName(0, 'sales_report', 6), 'tasks/001-sales_report');
	t.equal(taskDirName(998, 'x#999', 999), 'tasks/999-x#999');
});

t.test('a denominator of 1,000 or more gets wider numbers, so a listing keeps the frozen order', async t => {
	const names = Array.from({length: 1200}, (_, index) => taskDirName(index, 'answer_from_prompt', 1200));
	t.equal(names[0], 'tasks/0001-answer_from_prompt');
	t.same([...names].sort(), names);
});

t.test('the evidence directory appears whole: while it is filled it does not exist, then it holds what was written', async t => {
	const parent = await tempDir(t);
	const dir = join(parent, 'deeper', 'attempt');
	const {filled} = await openEvidenceDir(dir, async staging => {
		t.notOk(existsSync(dir), 'nothing at the path while the plan is written');
		t.equal(join(staging, '..'), join(parent, 'deeper'), 'filled beside it, in the same folder');
		await writeFile(join(staging, 'plan.json'), '{}');
		return 'filled';
	});
	t.equal(filled, 'filled');
	t.ok(existsSync(join(dir, 'plan.json')));
	t.same(readdirSync(join(parent, 'deeper')), ['attempt'], 'no opening stays beside it');
});

t.test('an existing evidence directory is refused, even an empty one or a file; a failed filling leaves nothing', async t => {
	const parent = await tempDir(t);
	await mkdir(join(parent, 'empty'));
	await writeFile(join(parent, 'file'), '');
	for (const name of ['empty', 'file']) {
		await t.rejects(openEvidenceDir(join(parent, name), async () => undefined), {reason: 'evidence_exists', message: /already exists/}, name);
	}
	await t.rejects(openEvidenceDir(join(parent, 'late'), async () => {
		// Another attempt took the name while this one was being filled: the rename must not replace it.
		await mkdir(join(parent, 'late'));
		await writeFile(join(parent, 'late', 'plan.json'), 'the other attempt');
	}), {reason: 'evidence_exists', message: /already exists/});
	t.same(readdirSync(join(parent, 'late')), ['plan.json'], 'the other attempt is untouched');
	await t.rejects(openEvidenceDir(join(parent, 'failed'), async () => {
		throw new Error('the plan could not be written');
	}), {message: 'the plan could not be written'});
	t.same(readdirSync(parent).sort(), ['empty', 'file', 'late'], 'neither the directory nor its opening stays');
});

t.test('an opening left by a dead supervisor (or a reused pid) is removed; a live one is kept', async t => {
	const parent = await tempDir(t);
	const dir = join(parent, 'attempt');
	const self = ownIdentity();
	if (self === null) throw new Error('no /proc');
	const live = `.attempt.opening-${self.pid}-${self.startTime}-a`;
	const reused = `.attempt.opening-${self.pid}-${self.startTime + 1}-b`;
	// Pid 2^22 + 1 is above any pid_max Linux allows.
	const gone = `.attempt.opening-4194305-1-c`;
	for (const name of [live, reused, gone]) await mkdir(join(parent, name));
	await mkdir(join(parent, '.other.opening-4194305-1-d'));
	t.equal(removeDeadOpenings(dir), 2);
	t.same(readdirSync(parent).sort(), [live, '.other.opening-4194305-1-d'].sort(), 'only the dead openings of this name went');
	await openEvidenceDir(dir, async () => undefined);
	t.ok(existsSync(dir), 'a rerun after a crash before the rename is not blocked');
});
