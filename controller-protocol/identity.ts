import {z} from 'zod';
import {AbsolutePath} from './task.js';

/** `sha256:` and the lowercase hex digest of a file's bytes. */
export const FileDigest = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'a digest is sha256:<64 lowercase hex digits>');
export type FileDigest = z.infer<typeof FileDigest>;

/** An absolute path without `.`/`..` segments, trailing or doubled slashes, so one file has one spelling. */
export const PinnedPath = AbsolutePath.regex(/^(?:\/(?!\.\.?(?:\/|$))[^/\0]+)+$/, 'a pinned path is absolute and normalized');

/**
 * What harness-lab runs for every controller call, and every file that run may execute or read,
 * each pinned by digest. Every absolute path in the command must itself be pinned.
 */
export const ControllerIdentity = z.strictObject({
	command: z.array(z.string().min(1)).min(1),
	files: z.record(PinnedPath, FileDigest),
}).superRefine((identity, context) => {
	const [executable] = identity.command;
	if (executable !== undefined && !executable.startsWith('/')) {
		context.addIssue({code: 'custom', path: ['command', 0], message: 'the executable must be an absolute path'});
	}
	identity.command.forEach((argument, index) => {
		if (argument.startsWith('/') && !Object.hasOwn(identity.files, argument)) {
			context.addIssue({code: 'custom', path: ['command', index], message: `${argument} is in the command but not pinned in files`});
		}
	});
});
export type ControllerIdentity = z.infer<typeof ControllerIdentity>;
