import {resolve} from 'node:path';
import {Option, type Command} from 'commander';
import {UsageError} from '../supervisor/input-error.js';
import {fail, failedExit, okExit} from './exit-codes.js';
import {addProviderChoiceOptions, readProviderChoice, type ProviderChoiceFlags} from './provider-flags.js';
import {listenForStop, type StopWords} from './stop-signals.js';
import {outputPath} from './path-option.js';

interface RunFlags extends ProviderChoiceFlags {
	planner: 'scripted' | 'openai-compatible';
	plannerModel?: string;
	plannerBaseUrl?: string;
	plannerApiKeyEnv: string;
	policy: string;
	root: string;
	suite: string;
	seeds: string;
	out: string;
}

const say = (line: string): void => void process.stdout.write(`${line}\n`);

export function registerSearch(program: Command): void {
	const search = program.command('search').description('harness search: propose, verify, run and evaluate harness candidates under a spending envelope');
	// The per-task budget of a search is each harness's own stopping limits: it takes the provider flags without --max-steps/--timeout.
	addProviderChoiceOptions(search.command('run')
		.description('run a search; search-report.json is written in --out whatever ends it')
		.requiredOption('--policy <file>', 'the search policy (harness-lab/search-policy@1)')
		.option('--root <harness>', '`builtin` or a harness file (harness-lab/harness@1)', 'builtin')
		.option('--suite <tasks>', '`all` built-in tasks or a comma list of ids', 'all')
		.option('--seeds <n>', 'replicates per candidate (seeds 1..n)', '3')
		.requiredOption('--out <dir>', 'a new folder for the report, plans and evidence', outputPath)
		.addOption(new Option('--planner <kind>', 'the search and mutation providers: deterministic, or backed by a model').choices(['scripted', 'openai-compatible']).default('scripted'))
		.option('--planner-model <name>', 'openai-compatible planner: the model')
		.option('--planner-base-url <url>', 'openai-compatible planner: the API base URL')
		.option('--planner-api-key-env <name>', 'openai-compatible planner: the environment variable holding the API key (\'\' sends none)', 'OPENAI_API_KEY'))
		.action(async (flags: RunFlags) => {
			const provider = readProviderChoice(flags);
			// The search engine is loaded when a subcommand runs, not by the command's --help.
			const {readPolicy, readRoot, readSeeds, readSuite, runSearch} = await import('../supervisor/search/index.js');
			const policy = await readPolicy(flags.policy);
			const root = await readRoot(flags.root);
			const planner = {...await plannerProviders(flags), policy};
			const stop = new AbortController();
			const stopListening = listenForStop({words: searchStopWords, stop});
			try {
				const report = await runSearch({planner, root: root.harness, rootName: root.name, seeds: readSeeds(flags.seeds), dir: resolve(flags.out), setup: {suite: readSuite(flags.suite), provider, signal: stop.signal}, say});
				process.exitCode = report.stop_reason === 'interrupted' ? failedExit : okExit;
			} finally {
				stopListening();
			}
		});
	search.command('replay')
		.description('re-plan every recorded round from its recorded context and check the same decisions (no model call, nothing runs)')
		.argument('<dir>', 'a search folder (holding search-report.json)')
		.action(async (dir: string) => {
			const {providersFor, readSearchReport, replaySearch, ReplayMismatchError} = await import('../supervisor/search/index.js');
			const report = await readSearchReport(dir);
			const bound = providersFor(report);
			try {
				const replayed = await replaySearch(report, {...bound, policy: report.policy}, resolve(dir));
				say(`replayed ${replayed} plan(s) of ${report.rounds.length} round(s): every choice, request, refusal and proposal is the same, and every node, replicate, comparison, spend and the stop reason agree with the records and the evidence`);
				process.exitCode = okExit;
			} catch (error) {
				if (!(error instanceof ReplayMismatchError)) throw error;
				for (const mismatch of error.mismatches) say(`mismatch: ${mismatch}`);
				fail(`the planning does not replay (${error.mismatches.length} mismatch${error.mismatches.length === 1 ? '' : 'es'})`);
			}
		});
	search.command('demo')
		.description('three rounds on a pinned suite with the scripted model, offline, then the planning replay')
		.argument('<out>', 'a new folder')
		.action(async (out: string) => {
			const {runSearchDemo} = await import('../supervisor/search/index.js');
			await runSearchDemo(resolve(out), say);
			process.exitCode = okExit;
		});
}

/** The planner's providers from the flags: the scripted pair, or both backed by one OpenAI-compatible model. */
async function plannerProviders(flags: RunFlags) {
	const {modelMutationProvider, modelSearchProvider, scriptedMutationProvider, scriptedSearchProvider} = await import('../supervisor/search/index.js');
	if (flags.planner === 'scripted') return {search: scriptedSearchProvider(), mutation: scriptedMutationProvider()};
	if (!flags.plannerModel || !flags.plannerBaseUrl || !URL.canParse(flags.plannerBaseUrl)) throw new UsageError('--planner openai-compatible needs --planner-model and a --planner-base-url URL');
	const keyEnv = flags.plannerApiKeyEnv.trim();
	const endpoint = {base_url: flags.plannerBaseUrl, model: flags.plannerModel, api_key_env: keyEnv === '' ? null : keyEnv};
	return {search: modelSearchProvider(endpoint), mutation: modelMutationProvider(endpoint)};
}

const searchStopWords: StopWords = {
	first: 'the replicate in flight ends as an interrupted attempt with its report, then search-report.json is written (stop reason interrupted)',
	faster: 'every process of the replicate is killed now; its report and search-report.json are still written',
	now: 'no search-report.json; the replicate in flight wrote no report (hlab eval --recover on its evaluations/ folder writes it)',
};
