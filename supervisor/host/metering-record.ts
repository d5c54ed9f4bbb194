import {join} from 'node:path';
import {z} from 'zod';
import {Usage} from '../../engine/outcome.js';
import {writeJson} from '../../files/write-json.js';
import {ProxyRefusals} from './host-records.js';

export const meteringSchema = 'harness-lab/metering@1';

/** `tasks/NNN-id/metering.json`: what the task's metering proxy counted and what it refused, in the sealed evidence. */
export const MeteringRecord = z.object({
	schema: z.literal(meteringSchema),
	/** The task's usage as the proxy counted it; `token_source` says whether any of it is an estimate. */
	usage: Usage,
	/** Requests forwarded to the provider. */
	requests: z.number().int().nonnegative(),
	refusals: ProxyRefusals,
});
export type MeteringRecord = z.infer<typeof MeteringRecord>;

/** Writes the record into a task's evidence folder; returns its evidence entry. */
export async function writeMeteringRecord(task: {dir: string; relDir: string}, record: Omit<MeteringRecord, 'schema'>): Promise<Record<string, string>> {
	await writeJson(join(task.dir, 'metering.json'), MeteringRecord.parse({schema: meteringSchema, ...record}));
	return {metering: `${task.relDir}/metering.json`};
}
