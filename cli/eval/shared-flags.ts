import {absolutePath} from '../path-option.js';
import type {FlagGroup} from './eval-mode.js';
import {outFlag} from './out-flag.js';

/** The flags that more than one mode takes; each mode's own flags are declared in its file. */
export const sharedFlags: FlagGroup[] = [
	{
		modes: ['freeze', 'list'], why: 'selects the tasks',
		add: command => command.option('--task <ids>', 'all, or a comma list of task ids (case ids with --cartridge, task folder names with --harbor-tasks)', 'all'),
	},
	{
		modes: ['freeze', 'plan', 'resume'], why: 'names the configuration a plan is frozen or run with',
		add: command => command.option('--config <file>', 'configuration file (default: ./harness-lab.config.json when present)', absolutePath),
	},
	{
		modes: ['freeze', 'plan', 'resume'], why: 'names the third-party agent a side runs',
		add: command => command.option('--agent <spec>', 'third-party agent spec (agent.json or YAML): with --plan, its agent CLI runs every task through its adapter, a supervised process tree behind the task\'s own metering proxy; with --freeze, the baseline\'s agent, its identity frozen into the plan', absolutePath),
	},
	{
		modes: ['plan', 'recover'], why: 'runs an attempt on queue nodes or drains a crashed one\'s queue',
		add: command => command
			.option('--queue <url>', 'with --plan: run the tasks on `hlab queue-node` processes through this Redis (redis://HOST:PORT[/DB] or rediss://, never with a password); with --recover: drain the attempt\'s queue there')
			.option('--redis-password-file <file>', 'with --queue: the Redis password, read from this file (or from HLAB_REDIS_PASSWORD), never from the command line', absolutePath),
	},
	outFlag,
	{
		modes: ['freeze', 'plan', 'compare', 'recover', 'resume', 'list'], why: 'applies to every mode',
		add: command => command.option('--json', 'print one JSON document instead of the summary'),
	},
];
