import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runInGroup} from '../../../../process/index.js';
import {Report} from '../../../../supervisor/attempt/report/report-schema.js';
import {freeze, scratch} from '../../../e2e/experiment-fixture.js';
import {evalEntry} from '../../../e2e/install-copy.js';
import {checkNoLeaks} from '../../../leak-check.js';

checkNoLeaks(t);

// The slow polling task takes seconds; the quick one finishes while it still runs.
const tasks = 'background_job_poll,sales_report';
// It polls until its job is done: on a loaded machine that can take many more than the usual 12 model requests.
const maxSteps = 45;
const eraseFrame = '\x1b[2A\r\x1b[J';

const quote = (text: string): string => `'${text.replaceAll('\'', '\'\\\'\'')}'`;

/** Runs a shell command line under util-linux `script`, whose pseudo-terminal is the command's stdout and stderr. */
async function onTerminal(commandLine: string): Promise<string> {
	const run = await runInGroup({argv: ['script', '-qfec', commandLine, '/dev/null'], deadlineMs: 180_000, env: {COLUMNS: '200'}});
	if (run.record.exit_code !== 0) throw new Error(`script ended with ${run.record.exit_code}: ${run.stdout?.toString() ?? ''}`);
	return run.stdout!.toString();
}

const evalLine = (plan: string, artifacts: string, extra = ''): string =>
	`${quote(process.execPath)} ${quote(evalEntry())} eval --plan ${quote(plan)} --artifacts ${quote(artifacts)}${extra}`;

/** The frames drawn on the terminal, each the text between two erasures. */
const framesOf = (screen: string): string[] => screen.split(eraseFrame).map(frame => frame.replaceAll('\r', ''));

t.test('on a terminal the display redraws while the slow task runs', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks, maxSteps});
	const screen = await onTerminal(evalLine(plan, join(dir, 'tty')));
	const frames = framesOf(screen);
	const whileSlow = frames
		.map(frame => /running: [^\n]*background_job_poll \((\d+\.\d)s\)/.exec(frame)?.[1])
		.filter(seconds => seconds !== undefined);
	const distinct = new Set(whileSlow);
	t.ok(distinct.size >= 3, `frames named the running slow task with ${distinct.size} different elapsed times (${[...distinct].join(', ')})`);
	t.ok(frames.some(frame => /tasks 1\/2 done, 1 running, 1 passed, 0 failed, \d+\.\ds elapsed, ~\d+\.\ds left, [\d,]+ tokens so far/.test(frame)),
		'a frame after the quick task shows the counts, an estimate and the tokens so far');
	t.match(frames.at(-1), /tasks 2\/2 done, 0 running, 2 passed, 0 failed, .*none left/, 'the last frame stays: everything done');
	t.notMatch(screen, /\[1\/2\]/, 'no plain progress lines on a terminal');
	t.match(screen, /attempt finished/, 'the summary follows the display');
});

t.test('off a terminal the progress is one plain line per finished task', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks, maxSteps});
	const run = await runInGroup({argv: [process.execPath, evalEntry(), 'eval', '--plan', plan, '--artifacts', join(dir, 'plain')], deadlineMs: 180_000});
	t.equal(run.record.exit_code, 0);
	const lines = run.stderr!.toString().trim().split('\n');
	t.same(lines.map(line => line.replace(/ \d+\.\ds$/, ' <s>')), ['[1/2] sales_report: passed <s>', '[2/2] background_job_poll: passed <s>']);
	t.notMatch(run.stderr!.toString(), /\x1b\[/, 'no escape sequences');
	// Each line shows the task's own wall time as its result records it, not how long the attempt has run.
	const report = Report.parse(JSON.parse(await readFile(join(dir, 'plain', 'report.json'), 'utf8')));
	const ownTime = (id: string): string => `${(report.tasks.find(task => task.task_id === id)!.wall_ms! / 1000).toFixed(1)}s`;
	t.same(lines, [`[1/2] sales_report: passed ${ownTime('sales_report')}`, `[2/2] background_job_poll: passed ${ownTime('background_job_poll')}`]);
});

t.test('with --json on a terminal, stdout is the JSON alone and nothing is drawn', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks, maxSteps});
	const stdoutFile = join(dir, 'stdout.json');
	const screen = await onTerminal(`${evalLine(plan, join(dir, 'json'), ' --json')} > ${quote(stdoutFile)}`);
	t.notMatch(screen, /tasks \d+\/2 done|\[1\/2\]/, 'no progress at all');
	const printed = JSON.parse(await readFile(stdoutFile, 'utf8')) as unknown;
	t.ok(printed !== null && typeof printed === 'object', 'stdout parses as one JSON value');
	const report = Report.parse(JSON.parse(await readFile(join(dir, 'json', 'report.json'), 'utf8')));
	t.equal(report.tasks.length, 2);
});
