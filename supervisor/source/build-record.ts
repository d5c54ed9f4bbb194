import {z} from 'zod';

export const buildSchema = 'harness-lab/host-build@1';

/** `DIR/build.json`: what a host build is made of, file by file, and the one digest that names it. */
export const BuildRecord = z.object({
	schema: z.literal(buildSchema),
	built_at: z.string(),
	/** The checkout the build was made from; `source_digest` matches the snapshot of that exact state. */
	source: z.object({root: z.string(), commit: z.string(), dirty: z.boolean(), source_digest: z.string()}),
	/** The launcher's file name inside the build folder. */
	launcher: z.string(),
	/** The node binary the launcher names by absolute path; it is part of what runs, so part of the digest. */
	node: z.object({path: z.string(), digest: z.string(), version: z.string()}),
	/** Every file in the build folder except build.json, relative path to digest (`link:` digests for symlinks). */
	files: z.record(z.string(), z.string()),
	/** Production packages copied from node_modules, with the lock file's digest they were resolved from. */
	packages: z.object({lock_digest: z.string(), copied: z.array(z.string())}),
	compiler: z.object({argv: z.array(z.string()), wall_ms: z.number().nonnegative()}),
	/** sha256 over the canonical JSON of {files, node}. */
	digest: z.string(),
});
export type BuildRecord = z.infer<typeof BuildRecord>;
