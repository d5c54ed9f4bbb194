import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';

checkNoLeaks(t);

t.test('the search demo runs offline, finds a harness that beats the root, and its planning replays', async t => {
	const out = join(await tempDir(t), 'demo');
	const started = performance.now();
	const demo = await hlab(['search', 'demo', out], {timeoutMs: 300_000});
	const seconds = (performance.now() - started) / 1000;
	t.equal(demo.record.exit_code, 0, demo.stderr);
	t.comment(`the demo took ${seconds.toFixed(1)} s`);
	t.ok(seconds < 240, 'well under the generous bound (two minutes on an idle machine)');
	t.match(demo.stdout, /plan: chose node-000/);
	t.match(demo.stdout, /refused set_tool_description: no-op/);
	// One running spend line per round (search-report.json keeps every unit), and the winner with its margin at the end.
	t.match(demo.stdout, /\n {2}spent in round 1: rounds 1, candidate_evaluations 3, task_attempts 18, .*; so far /);
	t.notMatch(demo.stdout, /\n {2}spend /);
	t.match(demo.stdout, /\nwinner: node-00\d \(mean score [\d.]+, mean turns [\d.]+ over 3 replicates\); margin over node-00\d: score /);
	t.match(demo.stdout, /replay: 2 plan\(s\) re-planned/);
	const report = JSON.parse(await readFile(join(out, 'search', 'search-report.json'), 'utf8')) as {stop_reason: string; rounds: Array<{comparisons: Array<{a: string; b: string; objective: string; verdict: string | null}>}>};
	t.equal(report.stop_reason, 'max-rounds');
	const beats = report.rounds.flatMap(round => round.comparisons).filter(comparison => comparison.b === 'node-000' && comparison.objective === 'score' && comparison.verdict === 'better');
	t.ok(beats.length > 0, 'a candidate beats the root on the suite score by more than k standard errors');
	const replay = await hlab(['search', 'replay', join(out, 'search')]);
	t.equal(replay.record.exit_code, 0, replay.stderr);
});
