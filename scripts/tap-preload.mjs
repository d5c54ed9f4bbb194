// What every test file's process loads first: scripts/tap.sh puts it in NODE_OPTIONS, whose --import runs before tap's own.
import {appendFileSync, readFileSync} from 'node:fs';
import module from 'node:module';
import {relative} from 'node:path';

// tap's process tracker (@tapjs/processinfo, which tap adds to every test file's --import) records the files and the
// processes a test loads and starts, for coverage (which .taprc turns off) and `tap --changed` (which the suite does not
// use). It cost every test file ~0.15 CPU-s: 41 modules more, and on Node 22 a module-loader thread that every import
// crossed (importing the attempt's code took 1.3 CPU-s instead of 0.5; bench/README.md). Its entry (named twice, in
// NODE_OPTIONS and in the arguments) is answered with an empty module; nothing else is resolved differently.
module.registerHooks({
	resolve: (specifier, context, next) => specifier.includes('/@tapjs/processinfo/dist/esm/import.mjs') ? {url: 'data:text/javascript,', shortCircuit: true} : next(specifier, context),
});

// The test files import the same compiled modules one after another: compiled once per run, in the run's own TMPDIR.
module.enableCompileCache?.();

const testFile = process.argv[1]?.endsWith('.test.js');

// A test file's processes (each `hlab`, grader, compiler and task test it starts, from its own thread or a worker's)
// start as a user's would: without this preload, tap's options for the tracker and its variables. They inherit them
// through the environment, which Node has read by now; a worker thread copies it when it starts, so it goes here.
const suiteOption = /(^|\s)"?--(import|loader)="?\S*(@tapjs\/processinfo\/\S*?|\/tap-preload\.mjs)"?(?=\s|$)/g;
if (testFile) {
	const options = (process.env.NODE_OPTIONS ?? '').replace(suiteOption, '').trim();
	if (options === '') delete process.env.NODE_OPTIONS;
	else process.env.NODE_OPTIONS = options;
	for (const name of Object.keys(process.env)) if (name.startsWith('_TAPJS_PROCESSINFO_')) delete process.env[name];
}

// The suite is bound by CPU, not by waiting: a file's wall time says more about what ran beside it than about the file.
// scripts/tap.sh names a file in HLAB_TEST_CPU; each test file's process adds one line to it as it exits: the CPU its
// own threads used and that of the processes it waited for (the hlab, agent and build processes it started), in ms.
const cpuRecord = process.env.HLAB_TEST_CPU;
if (cpuRecord && testFile) {
	// Taken out of what the file's processes inherit: one they start may be a test file too (a task's own tests run by
	// its grader, say), and its CPU is already the file's.
	delete process.env.HLAB_TEST_CPU;
	process.once('exit', () => recordCpu(cpuRecord, process.argv[1]));
}

function recordCpu(record, file) {
	let stat;
	try {
		stat = readFileSync('/proc/self/stat', 'latin1');
	} catch {
		return; // No /proc: nothing to add up.
	}
	// After the command's closing parenthesis: utime, stime, cutime and cstime, in clock ticks (USER_HZ, 100 on Linux).
	const [utime, stime, cutime, cstime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(tick => Number(tick) * 10);
	appendFileSync(record, `${utime + stime + cutime + cstime}\t${utime + stime}\t${relative(process.cwd(), file)}\n`);
}
