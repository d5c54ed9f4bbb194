// Loaded into the test processes through NODE_OPTIONS by scripts/tap.sh, so it runs before tap's own --import of its process
// tracker (@tapjs/processinfo). The tracker hooks module loading to list the files a test loads, for coverage, which .taprc
// turns off; on Node 22 it registers that hook off the main thread (module.register), so every module a test file imports
// crosses to the hooks thread and back: importing the attempt's code took 1.3 CPU-s instead of 0.5 (bench/README.md).
// This drops that one registration, and hands module.register back unchanged for anything else.
import module from 'node:module';

const register = module.register;
module.register = function registerUnlessTracker(specifier, ...rest) {
	if (!String(specifier).includes('/@tapjs/processinfo/')) return register.call(this, specifier, ...rest);
	module.register = register;
	return undefined;
};
