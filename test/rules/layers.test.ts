import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installRoot} from '../../files/install-root.js';
import {runInGroup} from '../../process/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {writeTree} from '../write-tree.js';

checkNoLeaks(t);

const ruleFile = join(installRoot, '.dependency-cruiser.cjs');
const depcruise = join(installRoot, 'node_modules', '.bin', 'depcruise');

/** Runs the layer rules as `npm test` does, in `cwd`, and returns the exit code and what it printed. */
async function cruise(cwd: string): Promise<{code: number | null; out: string}> {
	const run = await runInGroup({
		argv: [depcruise, '--config', ruleFile, '--output-type', 'err', '.'],
		cwd,
		deadlineMs: 60_000,
		stdoutLimit: 1 << 20,
		stderrLimit: 1 << 20,
	});
	return {code: run.record.exit_code, out: `${run.stdout?.toString() ?? ''}${run.stderr?.toString() ?? ''}`};
}

/** A small tree in the project's folder names, one file per entry. */
async function tree(root: string, files: Record<string, string>): Promise<void> {
	await writeFile(join(root, 'tsconfig.json'), JSON.stringify({compilerOptions: {module: 'nodenext', moduleResolution: 'nodenext'}}));
	await writeTree(root, files);
}

t.test('the project keeps its layers: no upward import and no cycle', async t => {
	const {code, out} = await cruise(installRoot);
	t.equal(code, 0, out);
});

t.test('the rules refuse an upward import, a sideways one in the foundation and a cycle', async t => {
	const root = await tempDir(t, 'hlab-layers-');
	await tree(root, {
		'cli/main.ts': "import {run} from '../engine/run.js';\nexport const main = run;\n",
		'engine/run.ts': "import type {Plan} from '../supervisor/plan/plan.js';\nexport const run = (plan?: Plan) => plan;\n",
		'supervisor/plan/plan.ts': 'export type Plan = {id: string};\n',
		'process/spawn.ts': "import {digest} from '../files/digest.js';\nexport const spawn = digest;\n",
		'files/digest.ts': 'export const digest = 1;\n',
		'tasks/a.ts': "import {b} from './b.js';\nexport const a = b;\n",
		'tasks/b.ts': "import {a} from './a.js';\nexport const b = () => a;\n",
		'newfolder/thing.ts': "import {digest} from '../files/digest.js';\nexport const thing = digest;\n",
	});
	const {code, out} = await cruise(root);
	t.not(code, 0, 'the cruise fails');
	t.match(out, /layer:engine.*engine\/run\.ts → supervisor\/plan\/plan\.ts/, 'a type-only upward import is caught');
	t.match(out, /layer:process.*process\/spawn\.ts → files\/digest\.ts/, 'the foundation imports nothing of the project');
	t.match(out, /no-cycle: tasks\/[ab]\.ts →\s+tasks\/[ab]\.ts/, 'a cycle is caught');
	t.match(out, /every-module-in-a-layer.*newfolder\/thing\.ts/, 'a folder in no layer is named');
	t.notMatch(out, /cli\/main\.ts → engine/, 'a downward import is allowed');
});

t.test('outside the attempt, only its face is imported: a stage file imported from compare is refused, the index and the report format are not', async t => {
	const root = await tempDir(t, 'hlab-layers-');
	await tree(root, {
		'supervisor/attempt/index.ts': "export {open} from './stages/open-attempt.js';\n",
		'supervisor/attempt/stages/open-attempt.ts': 'export const open = 1;\n',
		'supervisor/attempt/report/report-schema.ts': 'export const reportSchema = 1;\n',
		'supervisor/compare/reach-in.ts': "import {open} from '../attempt/stages/open-attempt.js';\nexport const reach = open;\n",
		'supervisor/compare/face.ts': "import {open} from '../attempt/index.js';\nimport {reportSchema} from '../attempt/report/report-schema.js';\nexport const face = [open, reportSchema];\n",
	});
	const {code, out} = await cruise(root);
	t.not(code, 0, 'the cruise fails');
	t.match(out, /attempt-through-its-face.*supervisor\/compare\/reach-in\.ts → supervisor\/attempt\/stages\/open-attempt\.ts/, 'reaching past the face is caught');
	t.notMatch(out, /supervisor\/compare\/face\.ts/, 'the face and the report format are allowed');
});
