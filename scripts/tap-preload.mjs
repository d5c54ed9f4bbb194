// What every test file's process loads first: scripts/tap.sh puts it in NODE_OPTIONS, whose --import runs before tap's own.
import {appendFileSync, readFileSync} from 'node:fs';
import module from 'node:module';
import {relative} from 'node:path';

// tap's process tracker (@tapjs/processinfo) hooks module loading to list the files a test loads, for coverage, which
// .taprc turns off. On Node 22 it registers that hook off the main thread (module.register), so every module a test file
// imports crosses to the hooks thread and back: importing the attempt's code took 1.3 CPU-s instead of 0.5
// (bench/README.md). Only that one registration is turned away; module.register is handed back unchanged.
const register = module.register;
module.register = function registerUnlessTracker(specifier, ...rest) {
	if (!String(specifier).includes('/@tapjs/processinfo/')) return register.call(this, specifier, ...rest);
	module.register = register;
	return undefined;
};

// The test files import the same compiled modules one after another: compiled once per run, in the run's own TMPDIR.
module.enableCompileCache?.();

// The suite is bound by CPU, not by waiting: a file's wall time says more about what ran beside it than about the file.
// scripts/tap.sh names a file in HLAB_TEST_CPU; each test file's process adds one line to it as it exits: the CPU its
// own threads used and that of the processes it waited for (the hlab, agent and build processes it started), in ms.
const cpuRecord = process.env.HLAB_TEST_CPU;
if (cpuRecord && process.argv[1]?.endsWith('.test.js')) {
	// Taken out of what the file's processes inherit: one they start may carry this preload too (a task's own tests run
	// by its grader, say), and its CPU is already the file's.
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
