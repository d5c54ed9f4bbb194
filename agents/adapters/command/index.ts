import type {AgentAdapter} from '../../adapter-contract.js';
import type {SpecOf} from '../spec-of.js';
import {classifyCommand} from './classify.js';
import {collectCommand} from './collect.js';
import {launchCommand} from './launch.js';

/** The generic adapter: any executable, its spec naming it; nothing of its flags is reserved. */
export const commandAdapter: AgentAdapter<SpecOf<'command'>> = {
	id: 'command',
	version: 1,
	bin: null,
	reservedFlags: [],
	launch: launchCommand,
	collect: collectCommand,
	classify: classifyCommand,
};
