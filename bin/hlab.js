#!/usr/bin/env node
// The launcher stays plain JavaScript so that an old Node gets a clear message instead of a syntax error.
import {statSync} from 'node:fs';
import module from 'node:module';
import v8 from 'node:v8';

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
	process.stderr.write(`hlab: Node.js 22 or newer is required (this is ${process.version}); run it through npm (npx hlab) or put Node 22 first on PATH\n`);
	process.exit(125);
}
// Compiled code cached on disk (under the OS temp folder, keyed by each file's content): later starts skip compiling.
module.enableCompileCache?.();
// Reading evidence (a report page, a comparison, a recovery) holds whole reports: V8's own sizing serves it, and the two
// flags below would triple its collection time (bench/README.md, ten thousand tasks).
const readsEvidence = process.argv[2] === 'report' || (process.argv[2] === 'eval' && process.argv.some(arg => /^--(compare|recover)(=|$)/.test(arg)));
// A host worker runs one task in a process of its own: the supervisor's sizing below is for many tasks in one heap, and
// its smaller young generation cost a host worker's start ~10 ms of CPU in collections (bench/README.md, "a host worker's start").
const hostWorker = process.argv[2] === 'host-worker';
if (!readsEvidence && !hostWorker) {
	// The supervisor's young generation grows to 2 MB semi-spaces, not V8's 16: at concurrency 8 the larger one was about 30 MB of
	// peak memory (bench/README.md, where the memory goes). Not held at its initial size (--semi-space-growth-factor=1): that was 5×
	// the scavenges and ~0.1 CPU-s of a one-task attempt (bench/README.md, the attempt's fixed cost). Worker threads set their own limit.
	v8.setFlagsFromString('--max-semi-space-size=2');
	// The old generation grows by a quarter over what the last full collection kept, not up to fourfold: with a young generation
	// this small, much of a task's garbage is promoted, and at 10,000 tasks the heaps of the supervisor and its threads (far
	// more garbage than live) doubled the peak memory (bench/README.md, ten thousand tasks). Worker threads inherit it.
	v8.setFlagsFromString('--heap-growing-percent=25');
}
// The bundle (scripts/bundle.mjs, run by `npm run build`): a few chunks load where dist/ is ~700 modules. A bare `tsc`
// leaves it older than the code it was made from; then the compiled files run, as they are the newer code.
const dist = new URL('../dist/', import.meta.url);
const built = file => statSync(new URL(file, dist), {throwIfNoEntry: false})?.mtimeMs ?? -1;
const from = built('bundle/bundle.json') >= built('cli/main.js') ? {cli: 'bundle/main.js', hostWorker: 'bundle/host-worker.js'} : {cli: 'cli/main.js', hostWorker: 'cli/host-worker.js'};
if (from.cli === 'cli/main.js') process.stderr.write('hlab: dist/bundle/ is older than dist/ (tsc ran without the bundler): running the compiled files; `npm run build` bundles them\n');
// The supervisor starts `hlab host-worker` once per host task; it takes no arguments, so it skips the command line parser.
if (process.argv.length === 3 && process.argv[2] === 'host-worker') await (await import(new URL(from.hostWorker, dist).href)).runHostWorker();
else await import(new URL(from.cli, dist).href);
