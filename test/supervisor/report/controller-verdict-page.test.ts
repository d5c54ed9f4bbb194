import {readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {checkNoLeaks} from '../../leak-check.js';
import {hlab} from '../../hlab.js';
import {tempDir} from '../../temp-dir.js';
import {pinFixture} from '../controller/fixtures.js';
import {launchBrowser, openPage} from './browser.js';

checkNoLeaks(t);

/** A script for the `decides.mjs` controller: both of its tasks ask for done.txt. */
const decidesScript = {
	schema: 'harness-lab/response-script@1',
	tasks: Object.fromEntries(['alpha', 'beta'].map(id => [id, [
		{tool_calls: [{type: 'function', function: {name: 'write_file', arguments: {path: 'done.txt', content: 'done\n'}}}]},
		{tool_calls: [{type: 'function', function: {name: 'done', arguments: {summary: 'wrote done.txt'}}}]},
	]])),
};

const statusOf = {accept: 0, reject: 1, revise: 3} as const;

// A real controller decision, through the CLI, on the page in Chromium and in the Markdown summary: each verdict as itself.
for (const told of ['revise', 'reject'] as const) {
	t.test(`a pinned controller's ${told} is ${told.toUpperCase()} on the page, in the Markdown summary and on the terminal`, async t => {
		const dir = await tempDir(t, `hlab-controller-${told}-page-`);
		const run = async (args: string[], status = 0): Promise<string> => {
			const result = await hlab(args, {cwd: dir, timeoutMs: 180_000});
			t.equal(result.record.exit_code, status, `hlab ${args.slice(0, 2).join(' ')}: ${result.stderr}`);
			return result.stdout;
		};
		await writeFile(join(dir, 'controller.json'), JSON.stringify(await pinFixture('decides.mjs', [told])));
		await writeFile(join(dir, 'responses.json'), JSON.stringify(decidesScript));
		await run(['eval', '--experiment-controller', 'controller.json', '--responses', 'responses.json', '--freeze', 'plan.json']);
		for (const side of ['baseline', 'candidate']) await run(['eval', '--plan', 'plan.json', '--artifacts', side, '--side', side]);
		const printed = await run(['eval', '--compare', 'baseline/report.json,candidate/report.json', '--decision-output', 'decision.json', '--summary-md', 'summary.md'], statusOf[told]);
		t.match(printed, new RegExp(`decision: ${told.toUpperCase()}`));
		t.match(await readFile(join(dir, 'summary.md'), 'utf8'), new RegExp(`^## hlab decision: ${told.toUpperCase()}\\n`));

		const browser = await launchBrowser(t);
		const {page, watch} = await openPage(browser, join(dir, 'decision.html'));
		const verdict = await page.textContent('#verdict');
		t.match(verdict, new RegExp(`^${told.toUpperCase()} the candidate`));
		if (told === 'revise') t.notMatch(verdict, /REJECT|ACCEPT/);
		t.match(await page.textContent('#decision'), /controller/, 'the controller\'s check is on the page');
		t.same(watch.errors, []);
	});
}
