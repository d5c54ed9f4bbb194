import type {AgentAdapter} from '../../adapter-contract.js';
import {classify} from './classify.js';
import {collect} from './collect.js';
import {launch} from './launch.js';
import type {CodexSpec} from './spec.js';

/** Codex (`@openai/codex`): its native binary, one Responses-API provider in config.toml, JSON events on stdout. */
export const codexAdapter: AgentAdapter<CodexSpec> = {
	id: 'codex',
	version: 1,
	bin: 'codex',
	reservedFlags: [
		'--model', '-m', '--config', '-c', '--sandbox', '-s', '--ask-for-approval', '-a', '--dangerously-bypass-approvals-and-sandbox', '--full-auto',
		'--json', '--profile', '-p', '--oss', '--local-provider', '--enable', '--disable', '--remote', '--ignore-user-config', '--cd', '-C', '--approve-for-me', '--output-last-message', '-o',
	],
	launch,
	collect,
	classify,
};
