import {z} from 'zod';

/** A task id becomes part of directory names (`NNN-<id>`), so it is a short portable name. */
export const TaskId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a task id is 1-128 characters of A-Z a-z 0-9 . _ - and starts with a letter or digit');
export type TaskId = z.infer<typeof TaskId>;

/** A path inside a workspace: relative, forward slashes, no `.` or `..` segments. */
export const RelativePath = z.string().regex(
	/^(?!\.\.?(?:\/|$))[^/\0]+(?:\/(?!\.\.?(?:\/|$))[^/\0]+)*$/,
	'a workspace path is relative, names a file, and has no empty, . or .. segments',
);
export type RelativePath = z.infer<typeof RelativePath>;

export const AbsolutePath = z.string().regex(/^\/[^\0]*$/, 'an absolute path is required');
export type AbsolutePath = z.infer<typeof AbsolutePath>;

/** One task of the controller's task source. */
export const ControllerTask = z.strictObject({
	id: TaskId,
	prompt: z.string().min(1),
	/** Starting files of the workspace: relative path → UTF-8 content. */
	files: z.record(RelativePath, z.string()).optional(),
	/** Anything the controller wants back in later calls; harness-lab only stores it. */
	metadata: z.record(z.string(), z.unknown()).optional(),
});
export type ControllerTask = z.infer<typeof ControllerTask>;

/** The ids of `ids` that occur more than once, each reported once, in first-seen order. */
export function repeatedIds(ids: readonly string[]): string[] {
	const seen = new Set<string>();
	const repeated = new Set<string>();
	for (const id of ids) {
		if (seen.has(id)) repeated.add(id);
		seen.add(id);
	}
	return [...repeated];
}
