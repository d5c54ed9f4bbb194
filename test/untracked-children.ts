/**
 * tap loads its process tracker (@tapjs/processinfo) into each test file and, through a hook on every spawn
 * (process-on-spawn), into every process started from it at any depth: each `hlab`, grader, compiler and task test
 * under a test file then runs a module-loader thread, records every file it loads and turns on source maps, about
 * twice the CPU of a start (`hlab eval --list`: 0.43 s alone, 0.99 s tracked). The suite uses neither the tracker's
 * coverage (off in .taprc) nor its process database, so from here on a test file's processes start as a user's
 * would: a hook added after the tracker's takes the tracker out of the environment it handed the child, and with it the
 * option scripts/tap.sh adds to stop the tracker's module hook in the test file itself.
 */
const spawnHooks = Symbol.for('process-on-spawn@*:singletonId');
const trackerOption = /(^|\s)"?--(import|loader)="?\S*(@tapjs\/processinfo\/\S*?|\/tap-preload\.mjs)"?(?=\s|$)/g;

interface SpawnHooks {
	listeners: Array<(options: {env: NodeJS.ProcessEnv}) => void>;
}

let untracked = false;

export function untrackChildren(): void {
	const hooks = (globalThis as Record<symbol, SpawnHooks | undefined>)[spawnHooks];
	if (untracked || hooks === undefined) return;
	untracked = true;
	hooks.listeners.push(options => {
		options.env = withoutTracker(options.env);
	});
	// A worker thread (an attempt run in the test file's own process) gets a copy of this environment, and its spawns pass
	// no hook of this thread: the options that load the tracker go from the copy's source too.
	dropTrackerOptions(process.env);
}

function withoutTracker(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('_TAPJS_PROCESSINFO_')));
	dropTrackerOptions(kept);
	return kept;
}

/** Takes the options that load the tracker (and this suite's preload) out of the environment's NODE_OPTIONS, in place. */
function dropTrackerOptions(env: NodeJS.ProcessEnv): void {
	const options = (env.NODE_OPTIONS ?? '').replace(trackerOption, '').trim();
	if (options === '') delete env.NODE_OPTIONS;
	else env.NODE_OPTIONS = options;
}
