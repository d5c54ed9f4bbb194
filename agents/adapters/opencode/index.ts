import type {AgentAdapter} from '../../adapter-contract.js';
import {classify} from './classify.js';
import {collect} from './collect.js';
import {launch} from './launch.js';
import type {OpencodeSpec} from './spec.js';

/** opencode (`opencode-ai`): its native binary, one OpenAI-compatible provider in opencode.json, every agent pinned, JSON events on stdout. */
export const opencodeAdapter: AgentAdapter<OpencodeSpec> = {
	id: 'opencode',
	version: 1,
	bin: 'opencode',
	reservedFlags: ['--model', '-m', '--prompt', '--agent', '--format', '--auto', '--pure', '--continue', '-c', '--session', '-s', '--fork', '--share', '--attach', '--dir', '--port', '--command', '--file', '-f', '--interactive', '-i'],
	launch,
	collect,
	classify,
};
