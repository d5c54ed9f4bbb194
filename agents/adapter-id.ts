import {z} from 'zod';

/** The adapters a spec may name: four third-party agent CLIs, and `command` for any executable. */
export const AdapterId = z.enum(['qwen-code', 'opencode', 'pi', 'codex', 'command']);
export type AdapterId = z.infer<typeof AdapterId>;
