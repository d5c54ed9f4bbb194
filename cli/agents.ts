import type {Command} from 'commander';
import type {LoadedSpec} from '../agents/index.js';
import {UsageError} from '../supervisor/input-error.js';
import {fail} from './exit-codes.js';
import {absolutePath} from './path-option.js';

export function registerAgents(program: Command): void {
	const agents = program
		.command('agents')
		.description('third-party agent specs and the store of their pinned packages: validate a spec, install its package, verify the installed copy');
	agents
		.command('validate')
		.description('check an agent spec (JSON or YAML) and print what it names')
		.argument('<spec>', 'the agent spec', absolutePath)
		.action(async (file: string) => {
			const {spec, path} = await loadSpec(file);
			const pkg = spec.package === undefined ? 'no package' : `${spec.package.name}@${spec.package.version}`;
			process.stdout.write(`${path}: adapter ${spec.adapter}, ${pkg}, model ${spec.model ?? 'none'}\n`);
		});
	agents
		.command('install')
		.description("install a spec's pinned package into the store ($XDG_CACHE_HOME/harness-lab/agents/, or $HLAB_AGENT_STORE) and record its digests; one already installed is verified instead")
		.argument('<spec>', 'the agent spec', absolutePath)
		.action(async (file: string) => {
			const {spec} = await loadSpec(file);
			const {installAgent} = await import('../agents/index.js');
			const result = await installAgent(spec);
			if (!result.ok) return refuse(result);
			const {name, version} = result.manifest.package;
			const files = Object.keys(result.manifest.files).length;
			const what = result.installed ? 'installed into' : 'already in the store at';
			process.stdout.write(`${name}@${version} ${what} ${result.dir}: ${files} files, ${result.manifest.digest}\n`);
		});
	agents
		.command('verify')
		.description("re-compute the digests of a spec's installed package, name the first file that changed, and print the agent's identity")
		.argument('<spec>', 'the agent spec', absolutePath)
		.action(async (file: string) => {
			const {spec} = await loadSpec(file);
			const {verifyAgent} = await import('../agents/index.js');
			const result = await verifyAgent(spec);
			if (!result.ok) return refuse(result);
			process.stderr.write(`${result.files} files in ${result.dir} match\n`);
			process.stdout.write(`${JSON.stringify(result.identity, null, 2)}\n`);
		});
}

async function loadSpec(file: string): Promise<LoadedSpec> {
	// agents/ (every adapter) is loaded when a subcommand runs, not by the command's --help.
	const {readAgentSpec} = await import('../agents/index.js');
	const result = await readAgentSpec(file);
	if (!result.ok) throw new UsageError(result.message, `agent_spec_${result.reason}`);
	return result.loaded;
}

/** A spec with nothing to install and a package the registry does not have are bad input; anything else failed. */
function refuse(result: {reason: string; message: string}): void {
	if (result.reason === 'no_package' || result.reason === 'not_found') throw new UsageError(result.message, result.reason);
	fail(result.message);
}
