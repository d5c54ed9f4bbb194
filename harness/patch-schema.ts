import {z} from 'zod';
import {digestJson, type Digest} from '../files/digest.js';
import {HarnessFingerprint} from './fingerprint.js';
import {TaskTemplate} from './task-template.js';

/** The file-format tag of a HarnessPatch. */
export const patchSchemaVersion = 'harness-lab/harness-patch@1';

/*
 * The operations a patch may hold: a closed list, one per surface of a Harness a search may change.
 * Their fields are only shaped here; whether the result is a valid Harness is `applyPatch`'s question.
 */

const SetSystemInstructions = z.object({op: z.literal('set_system_instructions'), system: z.string()}).strict();

/** A new task template; its variables must be the base's. */
const SetTaskTemplate = z.object({op: z.literal('set_task_template'), template: TaskTemplate}).strict();

/** A new description for a tool the base defines. */
const SetToolDescription = z.object({op: z.literal('set_tool_description'), tool: z.string(), description: z.string()}).strict();

/** The tools offered to the model, in order: only ever a narrowing of the base's. */
const SetEnabledTools = z.object({op: z.literal('set_enabled_tools'), enabled: z.array(z.string())}).strict();

const SetContextPolicy = z.object({op: z.literal('set_context_policy'), history: z.string()}).strict();

/** Stopping limits; a field left out keeps the base's value. */
const SetStoppingLimits = z.object({
	op: z.literal('set_stopping_limits'),
	max_steps: z.number().optional(),
	deadline_ms: z.number().optional(),
}).strict();

export const PatchOperation = z.discriminatedUnion('op', [SetSystemInstructions, SetTaskTemplate, SetToolDescription, SetEnabledTools, SetContextPolicy, SetStoppingLimits]);
export type PatchOperation = z.infer<typeof PatchOperation>;

/** Every operation name, the surfaces a policy may allow. */
export const patchOperationNames = ['set_system_instructions', 'set_task_template', 'set_tool_description', 'set_enabled_tools', 'set_context_policy', 'set_stopping_limits'] as const;
export const PatchOperationName = z.enum(patchOperationNames);
export type PatchOperationName = z.infer<typeof PatchOperationName>;

/** A closed, typed list of changes written against one pinned base harness. */
export const HarnessPatch = z.object({
	schema: z.literal(patchSchemaVersion),
	/** The harness the patch was written against; applied to any other it is stale. */
	base: HarnessFingerprint,
	operations: z.array(PatchOperation).min(1),
	/** Why the proposer thinks it helps; recorded, never acted on. */
	rationale: z.string(),
}).strict();
export type HarnessPatch = z.infer<typeof HarnessPatch>;

/** The digest of a patch: two patches with the same operations on the same base are one patch. */
export function fingerprintPatch(patch: HarnessPatch): Digest {
	return digestJson(HarnessPatch.parse(patch));
}
