// What every test file's process loads first: scripts/tap.sh puts it in NODE_OPTIONS, whose --import runs before tap's own.
import module from 'node:module';

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
