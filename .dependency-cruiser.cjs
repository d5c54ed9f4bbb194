/**
 * The layers of harness-lab, lowest first: the source of truth for what may import what.
 * A module may import its own layer's folder and any layer below; never one above, and never in a cycle.
 * CONTRIBUTING.md draws the same table for people; this file is what `npm test` checks.
 */
const {readdirSync, readFileSync} = require('node:fs');
const {join} = require('node:path');

/** The project's own folders (tsconfig.json's `include`, and bin/). */
const projectFolders = [...JSON.parse(readFileSync(join(__dirname, 'tsconfig.json'), 'utf8')).include, 'bin'];
/** Every other top-level folder, such as evidence a user wrote into the checkout (with a candidate's copy of the SDK): not source. */
const otherFolders = readdirSync(__dirname, {withFileTypes: true}).filter(entry => entry.isDirectory() && !projectFolders.includes(entry.name)).map(entry => entry.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

const layers = [
	// 0. Foundation: import nothing of the project but themselves.
	{name: 'process', path: '^process/'},
	{name: 'files', path: '^files/'},
	{name: 'controller-protocol', path: '^controller-protocol/'},
	// 1. What candidates, cartridge tools and controllers import.
	{name: 'sdk', path: '^sdk/'},
	// 2. What an agent is made of.
	{name: 'harness', path: '^harness/'},
	// 3. Runs one Harness on one task with a provider and a workspace.
	{name: 'engine', path: '^engine/'},
	// 4. Task sources, the scripted provider that plays them, and third-party agents.
	{name: 'tasks', path: '^tasks/'},
	{name: 'cartridges', path: '^cartridges/'},
	{name: 'scripted', path: '^scripted/'},
	// Third-party agent specs and the store of their pinned packages.
	{name: 'agents', path: '^agents/'},
	// 5. What runs where a task runs.
	{name: 'workers', path: '^workers/'},
	// 6. The supervisor, its own folders lowest first; the input-error type every part of it throws sits below them all.
	{name: 'supervisor/input-error', path: '^supervisor/input-error[.]ts$'},
	// Pure statistics (tests, intervals, power) that freezing and comparing both use.
	{name: 'supervisor/statistics', path: '^supervisor/statistics/'},
	{name: 'supervisor/controller', path: '^supervisor/controller/'},
	{name: 'supervisor/source', path: '^supervisor/source/'},
	{name: 'supervisor/plan', path: '^supervisor/plan/'},
	{name: 'supervisor/evidence', path: '^supervisor/evidence/'},
	{name: 'supervisor/host', path: '^supervisor/host/'},
	// Third-party agent CLIs as a task's executor: admission of a spec, one task under the supervisor (a host task's pieces).
	{name: 'supervisor/agent', path: '^supervisor/agent/'},
	// A task's evidence in other tools' formats (ATIF trajectories, OpenTelemetry traces): below the attempt, which writes them.
	{name: 'supervisor/export-formats', path: '^supervisor/export-formats/'},
	{name: 'supervisor/attempt', path: '^supervisor/attempt/'},
	// hlab cartridge eval and replay: a cartridge's cases through the attempt's task core, outside an experiment.
	{name: 'supervisor/cartridge-commands', path: '^supervisor/cartridge-commands/'},
	// The queue executor (coordinator) and the queue worker: BullMQ on Redis, on top of the attempt's pieces.
	{name: 'supervisor/queue', path: '^supervisor/queue/'},
	{name: 'supervisor/compare', path: '^supervisor/compare/'},
	{name: 'supervisor/pair', path: '^supervisor/pair/'},
	// The HTML page of an attempt or a comparison.
	{name: 'supervisor/report', path: '^supervisor/report/'},
	// Harness search: proposals verified, each replicate a real attempt, under a spending envelope.
	{name: 'supervisor/search', path: '^supervisor/search/'},
	// What is already on disk: attempts and decisions listed (hlab ls).
	{name: 'supervisor/listing', path: '^supervisor/listing/'},
	// hlab's leftovers removed (hlab gc), attempts' runtime roots told apart by the evidence that names them.
	{name: 'supervisor/cleanup', path: '^supervisor/cleanup/'},
	// hlab init: skeletons of a plugin, a cartridge, a controller, copied from examples/init/.
	{name: 'supervisor/scaffold', path: '^supervisor/scaffold/'},
	// hlab agent: one task through the attempt's pieces.
	{name: 'supervisor/run-one', path: '^supervisor/run-one/'},
	// hlab eval --resume: a new attempt that takes a crashed one's sealed records and runs the rest.
	{name: 'supervisor/resume', path: '^supervisor/resume/'},
	// hlab experiment: freeze, baseline, candidates, compare and page in one folder, each step as by hand.
	{name: 'supervisor/experiment', path: '^supervisor/experiment/'},
	// 7. Self-checks: they run bin/hlab.js as a user would.
	{name: 'checks', path: '^checks/'},
	// 8. The command line, on top of everything it offers.
	{name: 'cli', path: '^cli/'},
];

/** Layers that sit side by side: neither may import the other (beyond the order above). */
const peers = [['process', 'files', 'controller-protocol'], ['supervisor/controller', 'supervisor/source']];

const escape = name => name.replace(/[/]/g, '\\/');

function upwardRules() {
	return layers.flatMap((layer, index) => {
		const above = layers.slice(index + 1).map(higher => higher.path);
		const sideways = peers.find(group => group.includes(layer.name))?.filter(name => name !== layer.name) ?? [];
		const forbidden = [...above, ...sideways.map(name => layers.find(other => other.name === name).path)];
		if (forbidden.length === 0) return [];
		return [{
			name: `layer:${layer.name}`,
			comment: `${layer.name} may import only itself and the layers below it`,
			severity: 'error',
			from: {path: layer.path},
			to: {path: forbidden.join('|')},
		}];
	});
}

module.exports = {
	forbidden: [
		...upwardRules(),
		{
			name: 'every-module-in-a-layer',
			comment: 'a folder of the product that is in no layer is checked by no rule: give it its place above',
			severity: 'error',
			from: {pathNot: [...layers.map(layer => layer.path), '^(test|bench|examples|bin)/', '^[^/]+$']},
			to: {},
		},
		{
			name: 'attempt-through-its-face',
			comment: 'outside supervisor/attempt/, import its index.ts; the report format and the reading of finished evidence (read-evidence.ts) alone have light paths, so that compare, report and search read reports without loading the attempt runner',
			severity: 'error',
			from: {pathNot: ['^supervisor/attempt/', '^test/']},
			to: {path: '^supervisor/attempt/', pathNot: '^supervisor/attempt/(index|read-evidence|report/report-schema)[.]ts$'},
		},
		{
			name: 'no-cycle',
			comment: 'a cycle makes two modules one: say which is below',
			severity: 'error',
			from: {},
			to: {circular: true},
		},
		{
			name: 'product-imports-no-tests',
			comment: 'what ships never imports the test suite, the benchmarks or the examples',
			severity: 'error',
			from: {pathNot: '^(test|bench|examples)/'},
			to: {path: '^(test|bench|examples)/'},
		},
		{
			name: 'not-to-unresolvable',
			comment: 'an import that leads to no file',
			severity: 'error',
			from: {},
			// hlab/sdk (and its old name harness-lab/sdk) is how candidates and controllers name the SDK; the candidate compiler maps it.
			to: {couldNotResolve: true, pathNot: '^(hlab|harness-lab)/sdk$'},
		},
	],
	options: {
		parser: 'swc',
		doNotFollow: {path: 'node_modules'},
		// Task data and test fixtures are inputs, not modules of the project.
		// And only the project's folders are its modules.
		exclude: {path: ['^(dist|node_modules|experiments|bench/[.]peer)/|^tasks/[^/]+/(files|expected)/|/fixtures/', ...otherFolders.map(name => `^${name}/`)]},
		tsConfig: {fileName: 'tsconfig.json'},
		// Package subpaths (js-tiktoken/ranks/...) resolve through their exports maps, as Node does.
		enhancedResolveOptions: {exportsFields: ['exports'], conditionNames: ['import', 'node', 'default']},
		skipAnalysisNotInRules: true,
	},
};
