import {mkdir, readFile, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {installDir} from '../../agents/store/store-root.js';
import {treeDigest, treeDigests} from '../../agents/store/tree-digests.js';
import {installManifestName, type InstallManifest} from '../../agents/store/install-manifest.js';
import {Report} from '../../supervisor/attempt/report/report-schema.js';
import {Decision} from '../../supervisor/compare/decision-schema.js';
import {hlab} from '../hlab.js';
import {checkNoLeaks} from '../leak-check.js';
import {tempDir} from '../temp-dir.js';
import {freezeAgentPlan} from '../supervisor/agent/command-agents.js';

checkNoLeaks(t);

const pkg = {name: '@mariozechner/pi-coding-agent', version: '0.73.1'};

/**
 * A stand-in for pi at its pinned place in a store of the test's own, read by the real pi adapter: it asks the
 * provider the pi adapter configured (its models.json), answers, and prints pi's JSON events with the usage it claims
 * multiplied by `factor` (1: the truth).
 */
function fakePi(factor: number): string {
	return `import {readFileSync} from 'node:fs';
const models = JSON.parse(readFileSync(process.env.HOME + '/.pi/agent/models.json', 'utf8'));
const provider = Object.values(models.providers)[0];
const prompt = readFileSync(0, 'utf8');
const bash = {type: 'function', function: {name: 'bash', description: 'run a command', parameters: {type: 'object', properties: {command: {type: 'string'}}, required: ['command']}}};
const response = await fetch(provider.baseUrl + '/chat/completions', {method: 'POST', headers: {'content-type': 'application/json', authorization: 'Bearer ' + provider.apiKey}, body: JSON.stringify({model: provider.models[0].id, messages: [{role: 'user', content: prompt}], tools: [bash]})});
const answer = await response.json();
const text = answer.choices[0].message.content;
const usage = {input: Math.floor(answer.usage.prompt_tokens * ${factor}), output: Math.floor(answer.usage.completion_tokens * ${factor}), cacheRead: 0, cacheWrite: 0};
const say = event => process.stdout.write(JSON.stringify(event) + '\\n');
say({type: 'session', version: 3});
say({type: 'message_end', message: {role: 'user', content: [{type: 'text', text: prompt}]}});
say({type: 'message_end', message: {role: 'assistant', content: [{type: 'text', text}], usage, stopReason: 'stop'}});
say({type: 'agent_end', messages: []});
`;
}

/** Puts the stand-in into `store` as an installed package: its files, and the manifest of their digests. */
async function installFake(store: string, factor: number): Promise<void> {
	const dir = installDir(store, pkg);
	const root = join(dir, 'node_modules', ...pkg.name.split('/'));
	await mkdir(join(root, 'dist'), {recursive: true});
	await writeFile(join(root, 'package.json'), JSON.stringify({name: pkg.name, version: pkg.version, type: 'module', bin: {pi: 'dist/cli.js'}}));
	await writeFile(join(root, 'dist', 'cli.js'), fakePi(factor));
	const files = await treeDigests(dir);
	const manifest: InstallManifest = {schema: 'harness-lab/agent-install@1', package: pkg, bin: {pi: 'dist/cli.js'}, digest: treeDigest(files), files, installed_at: new Date().toISOString(), npm_version: null};
	await writeFile(join(dir, installManifestName), JSON.stringify(manifest));
}

t.test('an agent that under-reports its tokens is caught by the metering check: its claim is kept beside the proxy\'s count, and the candidate cannot be accepted', async t => {
	const dir = await tempDir(t, 'hlab-agent-claim-');
	const plan = await freezeAgentPlan(t, dir);
	const spec = join(dir, 'pi.json');
	await writeFile(spec, JSON.stringify({schema: 'harness-lab/agent@1', adapter: 'pi', package: pkg, model: 'reference'}));
	const side = async (name: string, factor: number, role: 'baseline' | 'candidate'): Promise<Report> => {
		const store = join(dir, `${name}-store`);
		await installFake(store, factor);
		const run = await hlab(['eval', '--plan', plan, '--agent', spec, '--side', role, '--artifacts', join(dir, name), '--json'], {env: {HLAB_AGENT_STORE: store}});
		t.equal(run.record.exit_code, 0, run.stderr);
		return Report.parse(JSON.parse(await readFile(join(dir, name, 'report.json'), 'utf8')));
	};
	const honest = await side('honest', 1, 'baseline');
	const lying = await side('lying', 0.1, 'candidate');
	const [truth, claim] = [lying.tasks[0]!.usage!, lying.tasks[0]!.usage_claim!];
	t.equal(truth.total_tokens, honest.tasks[0]!.usage!.total_tokens, 'the usage is what the proxy counted, the same for both');
	t.ok(claim.total_tokens! < truth.total_tokens! / 5, `the claim (${claim.total_tokens}) is kept, not believed (${truth.total_tokens})`);
	const decisionPath = join(dir, 'decision.json');
	const compared = await hlab(['eval', '--compare', `${join(dir, 'honest', 'report.json')},${join(dir, 'lying', 'report.json')}`, '--decision-output', decisionPath]);
	const decision = Decision.parse(JSON.parse(await readFile(decisionPath, 'utf8')));
	t.match(decision.checks.find(check => check.rule === 'metering'), {satisfied: false, message: /candidate.*misreported its usage on 1 task/}, compared.stdout);
	t.not(decision.decision, 'accept', 'a candidate whose claims differ from the metering is not accepted');
	t.match(decision.checks.find(check => check.rule === 'metering')?.message, /baseline's claims match the metering/, 'the honest side\'s claim matches');
});
