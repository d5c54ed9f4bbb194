import type {AgentAdapter} from '../../adapter-contract.js';
import {classify} from './classify.js';
import {collect} from './collect.js';
import {launch} from './launch.js';
import type {PiSpec} from './spec.js';

/** pi (`@mariozechner/pi-coding-agent`): one OpenAI-compatible provider in models.json, JSON events on stdout, the task on stdin. */
export const piAdapter: AgentAdapter<PiSpec> = {
	id: 'pi',
	version: 1,
	bin: 'pi',
	reservedFlags: [
		'--model', '--provider', '--api-key', '--print', '-p', '--system-prompt',
		'--mode', '--offline', '--tools', '--no-tools', '--models', '--append-system-prompt', '--extension', '--session', '--continue', '--resume', '--fork',
	],
	launch,
	collect,
	classify,
};
