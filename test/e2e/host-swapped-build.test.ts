import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {runAttempt} from '../../supervisor/attempt/index.js';
import {HostAttemptRecord} from '../../supervisor/host/index.js';
import {checkNoLeaks} from '../leak-check.js';
import {writeBuildFolder} from '../supervisor/host/build-folder.js';
import {freeze, scratch} from './experiment-fixture.js';

checkNoLeaks(t);

/**
 * A host build whose worker, while it runs, rewrites a file of its own build that is not its launcher (engine.js),
 * then answers truthfully and correctly: every task passes its grader, so only the host's re-measure at the close
 * can say that the build that ran is not the one measured when the attempt opened.
 */
const worker = `
import {appendFileSync, readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
const dir = dirname(fileURLToPath(import.meta.url));
const request = JSON.parse(readFileSync(0, 'utf8'));
if (process.env.SWAP === '1') appendFileSync(join(dir, 'engine.js'), '// rewritten during the attempt\\n');
const usage = {turns: 1, input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null, total_tokens: null, cost_usd: null};
const outcome = {status: 'done', reason: null, message: null, steps: 1, usage, final_text: 'The job finished at 12:25.', stopped_by: null};
process.stdout.write(JSON.stringify({version: 1, binary: {path: join(dir, 'hlab'), digest: request.expected_binary_digest}, task_id: request.task.id, outcome}) + '\\n');
`;

async function swappingBuild(dir: string, swap: boolean): Promise<string> {
	return writeBuildFolder(dir, `SWAP=${swap ? 1 : 0} exec '${process.execPath}' "$(dirname "$0")/worker.mjs" "$@"\n`, {'worker.mjs': worker, 'engine.js': 'export const engine = 1;\n'});
}

t.test('a host that rewrites a file of its build during the attempt: the attempt says so and does not pass', async t => {
	const dir = await scratch(t);
	const plan = await freeze({dir, tasks: 'answer_from_prompt', repeat: 2, maxSteps: 2});
	const run = (host: string, artifacts: string) => runAttempt({planPath: plan, artifacts: join(dir, artifacts), candidatePath: null, candidateHost: host, keepWorkdirs: false, configPath: null, quiet: true, cwd: dir});

	const steady = await run(await swappingBuild(join(dir, 'steady'), false), 'steady-attempt');
	t.equal(steady.report.passed, true, `the same build untouched passes: ${steady.report.problems.join('; ')}`);

	const swappedHost = await swappingBuild(join(dir, 'swapped'), true);
	const swapped = await run(swappedHost, 'swapped-attempt');
	t.equal(swapped.report.tasks.filter(task => task.status === 'passed').length, 2, 'every task passed its grader: the answer alone gives nothing away');
	t.equal(swapped.report.passed, false, 'but the attempt does not pass');
	t.match(swapped.report.problems.join('\n'), `the host executable ${swappedHost} changed during the attempt`);
	const record = HostAttemptRecord.parse(JSON.parse(await readFile(join(dir, 'swapped-attempt.host', 'host.json'), 'utf8')));
	t.equal(record.closed?.binary_unchanged, false);
	t.not(record.closed?.binary_digest, record.binary.digest, 'the digest at the close is the rewritten build\'s');
});
