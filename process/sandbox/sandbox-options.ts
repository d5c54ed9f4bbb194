import {z} from 'zod';
import {LoopbackBridge} from './loopback-bridge.js';

/** A command run under bubblewrap: the whole file system read-only, some paths hidden, some writable, maybe no network. */
export const Sandbox = z.object({
	/** Bound read-write at the same path (the task's workspace); everything else is read-only. */
	writable: z.array(z.string()),
	/** Bound read-only even under the private /tmp or a hidden path: what the command itself is made of (a host build). */
	readable: z.array(z.string()),
	/** Replaced by an empty read-only directory (or, for a file, by an empty one): the evidence, the plan, graders, home. */
	hidden: z.array(z.string()),
	/** Loopback only, in a network namespace of its own, when false. */
	network: z.boolean(),
	/** Without network: ports of the supervisor's loopback the command may still reach (its metering proxy). */
	bridges: z.array(LoopbackBridge).optional(),
	/** Folders shown at another path (a Harbor task's workspace at its WORKDIR); with any, the root is rebuilt so new paths can appear, then made read-only. */
	mounts: z.array(z.object({source: z.string(), target: z.string(), writable: z.boolean()})).optional(),
});
export type Sandbox = z.infer<typeof Sandbox>;
