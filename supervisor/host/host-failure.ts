import {z} from 'zod';
import {EngineFailureReason} from '../../engine/outcome.js';

/**
 * Why a supervised host task failed: the engine's reasons (the worker runs the engine, and the supervisor's process
 * record maps its deadline and spawn failures onto them), and what only the supervisor of a host process sees.
 */
export const HostFailureReason = z.enum([
	...EngineFailureReason.options,
	// Its stdout or stderr passed the byte limit and the group was ended.
	'output_limit',
	// It answered nothing readable, for another task, or as another binary than the one launched.
	'host',
]);
export type HostFailureReason = z.infer<typeof HostFailureReason>;
