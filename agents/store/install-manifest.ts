import {z} from 'zod';
import {AgentPackage} from '../agent-spec.js';

export const installManifestName = 'install.json';

const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** `install.json` in a store folder: what was installed, and the digest of every file under its node_modules/. */
export const InstallManifest = z.strictObject({
	schema: z.literal('harness-lab/agent-install@1'),
	package: AgentPackage,
	/** The `bin` entries of the package, name → path inside the package's folder. */
	bin: z.record(z.string(), z.string()),
	/** The digest over `files` (their canonical JSON): the installed package's identity. */
	digest: Digest,
	/** Path relative to the store folder (`node_modules/...`) → `sha256:` of a file's bytes or `link:` and a link's target. */
	files: z.record(z.string(), z.string()),
	installed_at: z.string(),
	/** The npm that installed it (`npm --version`); null when it could not tell. */
	npm_version: z.string().nullable(),
});
export type InstallManifest = z.infer<typeof InstallManifest>;
